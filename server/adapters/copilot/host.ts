// GitHub Copilot CLI as a host of the core: its events (event.ts), its session logs under
// `~/.copilot/session-state` (transcript.ts), its chat lines (`bash(npm test)`, `edit(src/app.ts)`),
// and its channels. Seen on 1.0.102: a command hook's stdout and stderr are not shown to the person
// when it exits 0 (a `systemMessage` is dropped); its stderr is shown (`! …`) when it exits 2, which
// on preToolUse denies the tool. userPromptSubmitted's `{"additionalContext": …}` on stdout is added
// to that prompt for the model (as a `<system_reminder>`), although the docs say its output is ignored.
import { chatOfItems, type ChatMessage, type ToolTargets, type TranscriptItem } from '../core/chat.js';
import type { HostAdapter } from '../core/host.js';
import { COPILOT_HOST, parseCopilotEvent } from './event.js';
import { copilotTranscripts } from './transcript.js';

const TARGETS: ToolTargets = {
  fields: { bash: 'command', create: 'path', edit: 'path', view: 'path', grep: 'pattern', glob: 'pattern' },
  pathFields: new Set(['path']),
};

export function copilotChat(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[] {
  return chatOfItems(items, lastReply, workspace, TARGETS);
}

export const copilotHost: HostAdapter = {
  name: COPILOT_HOST,
  platform: COPILOT_HOST,
  sessionType: 'cli',
  parse: parseCopilotEvent,
  transcripts: copilotTranscripts,
  chat: copilotChat,
  // Shown to the person only with exit code 2, which the hook never uses (it would deny a tool):
  // on stderr it reaches Copilot's hook log, and `turnback status` says why.
  notice: (message) => ({ stderr: `turnback: ${message}\n` }),
  // userPromptSubmitted's stdout `{"additionalContext": …}` reaches the model with the prompt (1.0.102).
  promptContext: (context) => ({ additionalContext: context }),
};
