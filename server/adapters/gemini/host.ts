// Gemini CLI as a host of the core: its events (event.ts), its session files under its own
// folder (transcript.ts), the chat lines of its terminal (`run_shell_command(npm test)`,
// `write_file(src/app.ts)`), and its way of telling the person something: JSON with
// `systemMessage` on the hook's stdout, which Gemini CLI prints.
import { chatOfItems, type ChatMessage, type ToolTargets, type TranscriptItem } from '../core/chat.js';
import type { HostAdapter } from '../core/host.js';
import { GEMINI_HOST, parseGeminiEvent } from './event.js';
import { geminiTranscripts } from './transcript.js';

const TARGETS: ToolTargets = {
  fields: {
    run_shell_command: 'command',
    write_file: 'file_path',
    replace: 'file_path',
    read_file: 'file_path',
    list_directory: 'dir_path',
    glob: 'pattern',
    grep_search: 'pattern',
    web_fetch: 'prompt',
    google_web_search: 'query',
  },
  pathFields: new Set(['file_path', 'dir_path']),
};

/**
 * The turn's chat. AfterAgent's prompt_response is every text of the turn joined by newlines
 * (seen on 0.61.0), not the last message: when it ends with the last text the session file
 * holds, it is the texts already taken, not a reply of its own.
 */
export function geminiChat(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[] {
  const texts = items.filter((item): item is Extract<TranscriptItem, { kind: 'text' }> => item.kind === 'text');
  const last = texts.at(-1);
  const known = last !== undefined && lastReply !== null && lastReply.trim().endsWith(last.text.trim());
  return chatOfItems(items, known ? null : lastReply, workspace, TARGETS);
}

export const geminiHost: HostAdapter = {
  name: GEMINI_HOST,
  platform: GEMINI_HOST,
  sessionType: 'cli',
  parse: parseGeminiEvent,
  transcripts: geminiTranscripts,
  chat: geminiChat,
  // An AfterTool is forwarded only for a tool whose BeforeTool is an exec (event.ts's same filter).
  endsFollowExecs: true,
  notice: (message) => ({ stdout: `${JSON.stringify({ systemMessage: message })}\n` }),
  // 0.61.0 adds BeforeAgent's additionalContext to the request as `<hook_context>…</hook_context>`.
  promptContext: (context) => ({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: context } }),
};
