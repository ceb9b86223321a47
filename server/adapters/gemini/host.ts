// Gemini CLI as a host of the core: its events (event.ts), its session files under its own
// folder (transcript.ts), the chat lines of its terminal (`run_shell_command(npm test)`,
// `write_file(src/app.ts)`), and its way of telling the person something: JSON with
// `systemMessage` on the hook's stdout, which Gemini CLI prints.
import { chatOfItems, type ToolTargets } from '../core/chat.js';
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

export const geminiHost: HostAdapter = {
  name: GEMINI_HOST,
  platform: GEMINI_HOST,
  sessionType: 'cli',
  parse: parseGeminiEvent,
  transcripts: geminiTranscripts,
  chat: (items, lastReply, workspace) => chatOfItems(items, lastReply, workspace, TARGETS),
  notice: (message) => ({ stdout: `${JSON.stringify({ systemMessage: message })}\n` }),
};
