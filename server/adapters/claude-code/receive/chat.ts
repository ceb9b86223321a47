// The chat of a Claude Code turn as the console shows it, so that "rollback with chat" deletes
// what the person saw: every assistant text block, and one short line per tool call in the form
// Claude Code's own terminal prints (`Bash(npm test)`, `Write(src/app.ts)`).
import { relativeInside } from '../paths.js';
import { cutText } from '../text.js';
import type { TranscriptItem } from './transcript.js';

export interface ChatMessage {
  role: 'assistant' | 'tool' | 'system';
  content: string;
}

/** A turn of thousands of tool calls is summed up past this many messages. */
export const MAX_CHAT_MESSAGES = 1000;
const TARGET_LIMIT = 200;

/** The input field that names what a tool works on, per tool; others show their first string. */
const TARGET_FIELDS: Record<string, string> = {
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
};

const PATH_FIELDS = new Set(['file_path', 'notebook_path']);

function targetOf(name: string, input: Record<string, unknown>, workspace: string): string {
  const field = TARGET_FIELDS[name];
  const value = field === undefined ? Object.values(input).find((v) => typeof v === 'string') : input[field];
  if (typeof value !== 'string') return '';
  const shown = PATH_FIELDS.has(field) ? (relativeInside(workspace, value) || value) : value;
  // One line: a heredoc or a script shows its first line.
  const [firstLine] = shown.split('\n', 1);
  const cut = cutText(firstLine, TARGET_LIMIT);
  return firstLine !== shown && cut === firstLine ? `${cut} …` : cut;
}

export function toolLine(name: string, input: Record<string, unknown>, workspace: string): string {
  return `${name}(${targetOf(name, input, workspace)})`;
}

/** The last assistant message's text, as Claude Code hands it over in Stop. */
function lastMessageTexts(items: TranscriptItem[]): string[] {
  const texts = items.filter((item): item is Extract<TranscriptItem, { kind: 'text' }> => item.kind === 'text');
  const last = texts.at(-1);
  if (last === undefined) return [];
  const sameMessage = last.messageId === null ? [last] : texts.filter((item) => item.messageId === last.messageId);
  return [last.text, sameMessage.map((item) => item.text).join('\n\n'), sameMessage.map((item) => item.text).join('\n')];
}

/**
 * The messages of a turn from its transcript items. `lastReply` (Stop's
 * last_assistant_message) is added when the transcript does not hold it yet.
 */
export function chatOf(items: TranscriptItem[], lastReply: string | null, workspace: string): ChatMessage[] {
  const messages: ChatMessage[] = items.map((item) =>
    item.kind === 'text'
      ? { role: 'assistant', content: item.text }
      : { role: 'tool', content: toolLine(item.name, item.input, workspace) });
  if (lastReply !== null && !lastMessageTexts(items).some((text) => text.trim() === lastReply.trim())) {
    messages.push({ role: 'assistant', content: lastReply });
  }
  if (messages.length <= MAX_CHAT_MESSAGES) return messages;
  // The reply at the end is what the person read last: keep it, say what was left out.
  const kept = messages.slice(0, MAX_CHAT_MESSAGES - 2);
  const omitted = messages.length - kept.length - 1;
  return [...kept, { role: 'system', content: `(${omitted} more messages not recorded)` }, messages[messages.length - 1]];
}
