// The chat of a turn as the console shows it, so that "rollback with chat" deletes what the
// person saw: every assistant text block, and one short line per tool call in the form the
// host's own terminal prints (`Bash(npm test)`, `Write(src/app.ts)`). Hosts differ only in
// which input field names a tool's target (toolLine's `fields`).
import { relativeInside } from './paths.js';
import { cutText } from './text.js';

export interface ChatMessage {
  role: 'assistant' | 'tool' | 'system';
  content: string;
}

export type TranscriptItem =
  | { kind: 'text'; messageId: string | null; text: string }
  /** `id` is the call id the tool's hook events carry (Claude Code tool_use_id). */
  | { kind: 'tool'; id: string | null; name: string; input: Record<string, unknown> };

/** A turn of thousands of tool calls is summed up past this many messages. */
export const MAX_CHAT_MESSAGES = 1000;
const TARGET_LIMIT = 200;

/** Per tool, the input field that names what it works on; a path field is shown relative to the workspace. */
export interface ToolTargets {
  fields: Record<string, string>;
  pathFields: ReadonlySet<string>;
}

function targetOf(name: string, input: Record<string, unknown>, workspace: string, targets: ToolTargets): string {
  const field = targets.fields[name];
  const value = field === undefined ? Object.values(input).find((v) => typeof v === 'string') : input[field];
  if (typeof value !== 'string') return '';
  const shown = targets.pathFields.has(field) ? relativeInside(workspace, value) || value : value;
  // One line: a heredoc or a script shows its first line.
  const [firstLine] = shown.split('\n', 1);
  const cut = cutText(firstLine, TARGET_LIMIT);
  return firstLine !== shown && cut === firstLine ? `${cut} …` : cut;
}

export function toolLineOf(
  name: string,
  input: Record<string, unknown>,
  workspace: string,
  targets: ToolTargets,
): string {
  return `${name}(${targetOf(name, input, workspace, targets)})`;
}

/** The last assistant message's text, as the host hands it over at its turn's end. */
function lastMessageTexts(items: TranscriptItem[]): string[] {
  const texts = items.filter((item): item is Extract<TranscriptItem, { kind: 'text' }> => item.kind === 'text');
  const last = texts.at(-1);
  if (last === undefined) return [];
  const sameMessage = last.messageId === null ? [last] : texts.filter((item) => item.messageId === last.messageId);
  return [
    last.text,
    sameMessage.map((item) => item.text).join('\n\n'),
    sameMessage.map((item) => item.text).join('\n'),
  ];
}

/**
 * The messages of a turn from its transcript items. `lastReply` (the reply the turn's end
 * event carries) is added when the transcript does not hold it yet.
 */
export function chatOfItems(
  items: TranscriptItem[],
  lastReply: string | null,
  workspace: string,
  targets: ToolTargets,
): ChatMessage[] {
  const messages: ChatMessage[] = items.map((item) =>
    item.kind === 'text'
      ? { role: 'assistant', content: item.text }
      : { role: 'tool', content: toolLineOf(item.name, item.input, workspace, targets) },
  );
  if (lastReply !== null && !lastMessageTexts(items).some((text) => text.trim() === lastReply.trim())) {
    messages.push({ role: 'assistant', content: lastReply });
  }
  if (messages.length <= MAX_CHAT_MESSAGES) return messages;
  // The reply at the end is what the person read last: keep it, say what was left out.
  const kept = messages.slice(0, MAX_CHAT_MESSAGES - 2);
  const omitted = messages.length - kept.length - 1;
  return [
    ...kept,
    { role: 'system', content: `(${omitted} more messages not recorded)` },
    messages[messages.length - 1],
  ];
}
