// Codex CLI as a host of the core: its events (event.ts), its rollouts under `$CODEX_HOME/sessions`
// (rollout.ts), its chat lines (chat.ts), and its way of telling the person something: JSON with
// `systemMessage` on the hook's stdout (an output field of every Codex hook event).
import type { HostAdapter } from '../core/host.js';
import { codexChat } from './chat.js';
import { CODEX_HOST, parseCodexEvent } from './event.js';
import { codexTranscripts } from './rollout.js';

export const codexHost: HostAdapter = {
  name: CODEX_HOST,
  platform: CODEX_HOST,
  sessionType: 'cli',
  parse: parseCodexEvent,
  transcripts: codexTranscripts,
  chat: codexChat,
  // A PostToolUse is forwarded only for a tool whose PreToolUse is an exec (event.ts's same filter).
  endsFollowExecs: true,
  notice: (message) => ({ stdout: `${JSON.stringify({ systemMessage: message })}\n` }),
  // 0.169.0's UserPromptSubmit output: hookSpecificOutput {hookEventName, additionalContext}, as Claude Code's.
  promptContext: (context) => ({
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context },
  }),
};
