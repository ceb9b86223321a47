// Claude Code as a host of the core: its events (event.ts), its transcripts under its projects
// folder (receive/transcript.ts), the chat lines of its terminal (receive/chat.ts), and its way
// of telling the person something: JSON with `systemMessage` on the hook's stdout.
import type { HostAdapter } from '../core/host.js';
import { CURSOR_HOST, isCursorPayload } from '../cursor/event.js';
import { CLAUDE_CODE_HOST, parseHookEventValue } from './event.js';
import { chatOf } from './receive/chat.js';
import { claudeCodeTranscripts } from './receive/transcript.js';

export const claudeCodeHost: HostAdapter = {
  name: CLAUDE_CODE_HOST,
  platform: CLAUDE_CODE_HOST,
  sessionType: 'cli',
  parse: parseHookEventValue,
  transcripts: claudeCodeTranscripts,
  chat: chatOf,
  // 2.1.328 answers a `<task-notification>` prompt of its own once a background subagent is done.
  promptsAfterSubagents: true,
  // A PostToolUse is forwarded only for Bash and MCP tools, whose PreToolUse is an exec.
  endsFollowExecs: true,
  // Cursor runs the hooks of `.claude/settings*.json` too, with its own payloads: those are Cursor's events.
  eventOfHost: (raw) => (isCursorPayload(raw) ? CURSOR_HOST : null),
  notice: (message) => ({ stdout: `${JSON.stringify({ systemMessage: message })}\n` }),
  // UserPromptSubmit's additionalContext goes to the model with the prompt.
  promptContext: (context) => ({
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context },
  }),
};
