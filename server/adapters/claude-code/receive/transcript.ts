// Reads the agent's last reply from a Claude Code transcript (JSONL, one entry per line).
// Assistant entries are `{type: "assistant", message: {id?, content}}` where content is a
// string or an array of parts; only `type: "text"` parts are the reply. Claude Code writes
// one API message as several lines (one per part, sharing `message.id`), so the reply is the
// text of every trailing line of the last message that had text. Only the current turn
// counts: Stop can fire before the final reply is flushed, and the previous turn's reply
// must not be recorded in its place. Transcripts grow large: only the tail is read, widening
// until the turn's prompt is in it (up to a bound).
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

const FIRST_TAIL_BYTES = 256 * 1024;
/** A turn whose prompt lies further back than this gets the reply found within it. */
const MAX_TAIL_BYTES = 64 * 1024 * 1024;

interface AssistantLine {
  messageId: string | null;
  text: string;
}

type Line = { kind: 'assistant'; entry: AssistantLine } | { kind: 'prompt' } | { kind: 'other' };

const isPart = (part: unknown, type: string): part is Record<string, unknown> =>
  typeof part === 'object' && part !== null && (part as { type?: unknown }).type === type;

/** A person's prompt, as opposed to the tool results Claude Code also files as user entries. */
function isPrompt(message: Record<string, unknown>): boolean {
  const { content } = message;
  if (typeof content === 'string') return true;
  return Array.isArray(content) && content.some((part) => isPart(part, 'text')) && !content.some((part) => isPart(part, 'tool_result'));
}

function classify(line: string): Line {
  if (!line.includes('"assistant"') && !line.includes('"user"')) return { kind: 'other' };
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  if (typeof entry !== 'object' || entry === null) return { kind: 'other' };
  const { type, message, isMeta } = entry as Record<string, unknown>;
  if (typeof message !== 'object' || message === null) return { kind: 'other' };
  if (type === 'user') return isMeta !== true && isPrompt(message as Record<string, unknown>) ? { kind: 'prompt' } : { kind: 'other' };
  if (type !== 'assistant') return { kind: 'other' };
  return { kind: 'assistant', entry: assistantEntry(message as Record<string, unknown>) };
}

function assistantEntry(message: Record<string, unknown>): AssistantLine {
  const { id, content } = message;
  const messageId = typeof id === 'string' ? id : null;
  if (typeof content === 'string') return { messageId, text: content };
  if (!Array.isArray(content)) return { messageId, text: '' };
  const texts = content
    .filter((part) => isPart(part, 'text') && typeof part.text === 'string')
    .map((part) => part.text as string);
  return { messageId, text: texts.join('\n\n') };
}

export interface TurnReply {
  /** The reply, or null when the turn has none (yet). */
  text: string | null;
  /** Whether the turn's prompt was among the lines, so nothing before them matters. */
  complete: boolean;
}

/** The current turn's last reply in these complete lines. */
export function lastAssistantTextOfLines(lines: string[]): TurnReply {
  const parts: string[] = [];
  let messageId: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = classify(lines[i]);
    if (line.kind === 'prompt') return { text: parts.length > 0 ? parts.join('\n\n') : null, complete: true };
    if (line.kind !== 'assistant') continue;
    const entry = line.entry;
    if (parts.length === 0) {
      if (entry.text.trim() === '') continue;
      parts.unshift(entry.text);
      messageId = entry.messageId;
      if (messageId === null) return { text: parts[0], complete: true };
    } else if (entry.messageId === messageId) {
      if (entry.text.trim() !== '') parts.unshift(entry.text);
    } else {
      return { text: parts.join('\n\n'), complete: true };
    }
  }
  return { text: parts.length > 0 ? parts.join('\n\n') : null, complete: false };
}

async function readRange(file: FileHandle, start: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await file.read(buffer, read, length - read, start + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read).toString('utf8');
}

/**
 * The last assistant reply of the transcript at `path`, or null (none, unreadable, or not an
 * absolute path to a regular file). The server reads it on behalf of whoever holds the agent
 * token: a FIFO or a device must not stall it (hence the non-blocking open and the file-type
 * check), and a huge transcript is read no further back than MAX_TAIL_BYTES.
 */
export async function lastAssistantText(path: string): Promise<string | null> {
  if (!isAbsolute(path)) return null;
  let file: FileHandle;
  try {
    file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) return null;
    const size = stats.size;
    for (let tail = FIRST_TAIL_BYTES; ; tail *= 4) {
      const start = Math.max(0, size - Math.min(tail, MAX_TAIL_BYTES));
      const lines = (await readRange(file, start, size - start)).split('\n');
      // The first line of a partial tail is cut mid-way: only whole lines count.
      if (start > 0) lines.shift();
      const reply = lastAssistantTextOfLines(lines);
      if (reply.complete || start === 0 || tail >= MAX_TAIL_BYTES) return reply.text;
    }
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
