// The chat of a Claude Code turn: the core's chat with the input field Claude Code's terminal
// shows for each of its tools (`Bash(npm test)`, `Write(src/app.ts)`).
import { chatOfItems, toolLineOf, type ChatMessage, type ToolTargets, type TranscriptItem } from '../../core/chat.js';

export { MAX_CHAT_MESSAGES, type ChatMessage } from '../../core/chat.js';

const TARGETS: ToolTargets = {
  fields: {
    Bash: 'command',
    Read: 'file_path',
    Write: 'file_path',
    Edit: 'file_path',
    MultiEdit: 'file_path',
    NotebookEdit: 'notebook_path',
    Glob: 'pattern',
    Grep: 'pattern',
    Agent: 'description',
    Task: 'description',
    WebFetch: 'url',
    WebSearch: 'query',
  },
  pathFields: new Set(['file_path', 'notebook_path']),
};

export function toolLine(name: string, input: Record<string, unknown>, workspace: string): string {
  return toolLineOf(name, input, workspace, TARGETS);
}

export function chatOf(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[] {
  return chatOfItems(items, lastReply, workspace, TARGETS);
}
