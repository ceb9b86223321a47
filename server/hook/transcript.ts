// Reads the agent's last reply from a Claude Code transcript (JSONL, one entry per line).
// Assistant entries are `{type: "assistant", message: {id?, content}}` where content is a
// string or an array of parts; only `type: "text"` parts are the reply. Claude Code writes
// one API message as several lines (one per part, sharing `message.id`), so the reply is the
// text of every trailing line of the last message that had text. Transcripts grow large:
// only the tail is read, widening until a reply is found.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const FIRST_TAIL_BYTES = 256 * 1024;

interface AssistantLine {
  messageId: string | null;
  text: string;
}

function assistantLine(line: string): AssistantLine | null {
  if (!line.includes('"assistant"')) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry !== 'object' || entry === null) return null;
  const { type, message } = entry as Record<string, unknown>;
  if (type !== 'assistant' || typeof message !== 'object' || message === null) return null;
  const { id, content } = message as Record<string, unknown>;
  const messageId = typeof id === 'string' ? id : null;
  if (typeof content === 'string') return { messageId, text: content };
  if (!Array.isArray(content)) return { messageId, text: '' };
  const texts = content
    .filter((part): part is { type: 'text'; text: string } =>
      typeof part === 'object' && part !== null && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text);
  return { messageId, text: texts.join('\n\n') };
}

/** The last reply in these complete lines, or null when none has text. */
export function lastAssistantTextOfLines(lines: string[]): string | null {
  const parts: string[] = [];
  let messageId: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = assistantLine(lines[i]);
    if (!entry) continue;
    if (parts.length === 0) {
      if (entry.text.trim() === '') continue;
      parts.unshift(entry.text);
      messageId = entry.messageId;
      if (messageId === null) break;
    } else if (entry.messageId === messageId) {
      if (entry.text.trim() !== '') parts.unshift(entry.text);
    } else {
      break;
    }
  }
  return parts.length > 0 ? parts.join('\n\n') : null;
}

function readRange(fd: number, start: number, length: number): string {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, start + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read).toString('utf8');
}

/** The last assistant reply of the transcript at `path`, or null (none, or unreadable). */
export function lastAssistantText(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    for (let tail = FIRST_TAIL_BYTES; ; tail *= 4) {
      const start = Math.max(0, size - tail);
      const lines = readRange(fd, start, size - start).split('\n');
      // The first line of a partial tail is cut mid-way: only whole lines count.
      if (start > 0) lines.shift();
      const text = lastAssistantTextOfLines(lines);
      if (text !== null || start === 0) return text;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
