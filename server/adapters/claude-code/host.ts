// Claude Code as a host of the core: its events (event.ts), its transcripts under its projects
// folder (receive/transcript.ts), the chat lines of its terminal (receive/chat.ts), and its way
// of telling the person something: JSON with `systemMessage` on the hook's stdout.
import type { HostAdapter } from '../core/host.js';
import { CLAUDE_CODE_HOST, parseHookEventValue } from './event.js';
import { chatOf } from './receive/chat.js';
import { claudeCodeTranscripts } from './receive/transcript.js';

/** Cursor runs the hooks of `.claude/settings*.json` too, with its own payloads: those are Cursor's events. */
const isCursorPayload = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) &&
  'conversation_id' in raw && 'workspace_roots' in raw && !('session_id' in raw);

export const claudeCodeHost: HostAdapter = {
  name: CLAUDE_CODE_HOST,
  platform: CLAUDE_CODE_HOST,
  sessionType: 'cli',
  parse: parseHookEventValue,
  transcripts: claudeCodeTranscripts,
  chat: chatOf,
  // 2.1.328 answers a `<task-notification>` prompt of its own once a background subagent is done.
  promptsAfterSubagents: true,
  eventOfHost: (raw) => (isCursorPayload(raw) ? 'cursor' : null),
  notice: (message) => ({ stdout: `${JSON.stringify({ systemMessage: message })}\n` }),
};
