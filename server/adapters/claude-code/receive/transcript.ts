// Reads one turn of a Claude Code transcript (JSONL, one entry per line): what the assistant
// wrote and which tools it called after the turn's prompt, in order. Assistant entries are
// `{type: "assistant", message: {id?, content}}` where content is a string or an array of
// parts; Claude Code writes one API message as several lines (one per part, sharing
// `message.id`). A prompt is a user entry with text and no tool result (tool results are
// user entries too); meta entries and a subagent's side chain are neither. Transcripts grow
// large: only the tail is read, widening until the turn's prompt is in it (up to a bound).
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

const FIRST_TAIL_BYTES = 256 * 1024;
/**
 * How long a turn's end waits for the transcript to hold every tool call its hooks announced:
 * Claude Code appends transcript lines asynchronously, and its Stop hook can fire before the
 * last of them is written (seen on the real CLI under load). Well inside the Stop hook's 2 s.
 */
const TRANSCRIPT_SETTLE_MS = 1000;
/** How often it looks again: a stat each time, and a read only when the file has changed. */
const TRANSCRIPT_POLL_MS = 25;
/** A turn whose prompt lies further back than this gets what is found within it. */
const MAX_TAIL_BYTES = 64 * 1024 * 1024;

export type TranscriptItem =
  | { kind: 'text'; messageId: string | null; text: string }
  /** `id` is the tool_use_id the tool's hook events carry. */
  | { kind: 'tool'; id: string | null; name: string; input: Record<string, unknown> };

type Line =
  | { kind: 'assistant'; items: TranscriptItem[] }
  | { kind: 'prompt'; text: string }
  | { kind: 'other' };

type Json = Record<string, unknown>;

const isPart = (part: unknown, type: string): part is Json =>
  typeof part === 'object' && part !== null && (part as { type?: unknown }).type === type;

/** A person's prompt, as opposed to the tool results Claude Code also files as user entries. */
function promptText(message: Json): string | null {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.some((part) => isPart(part, 'tool_result'))) return null;
  const texts = content.filter((part) => isPart(part, 'text') && typeof part.text === 'string').map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : null;
}

function assistantItems(message: Json): TranscriptItem[] {
  const { id, content } = message;
  const messageId = typeof id === 'string' ? id : null;
  if (typeof content === 'string') return content.trim() === '' ? [] : [{ kind: 'text', messageId, text: content }];
  if (!Array.isArray(content)) return [];
  const items: TranscriptItem[] = [];
  for (const part of content) {
    if (isPart(part, 'text') && typeof part.text === 'string' && part.text.trim() !== '') {
      items.push({ kind: 'text', messageId, text: part.text });
    } else if (isPart(part, 'tool_use') && typeof part.name === 'string') {
      const input = typeof part.input === 'object' && part.input !== null ? (part.input as Json) : {};
      items.push({ kind: 'tool', id: typeof part.id === 'string' ? part.id : null, name: part.name, input });
    }
  }
  return items;
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
  const { type, message, isMeta, isSidechain } = entry as Json;
  if (typeof message !== 'object' || message === null || isSidechain === true) return { kind: 'other' };
  if (type === 'user') {
    const text = isMeta === true ? null : promptText(message as Json);
    return text === null ? { kind: 'other' } : { kind: 'prompt', text };
  }
  return type === 'assistant' ? { kind: 'assistant', items: assistantItems(message as Json) } : { kind: 'other' };
}

interface TurnTranscript {
  items: TranscriptItem[];
  /** Whether the turn's prompt was among the lines, so nothing before them matters. */
  found: boolean;
}

/**
 * The items after the turn's prompt and before the next prompt. `prompt` names the turn (the
 * prompt of a later turn may already be written when a turn is finished late); null takes the
 * last prompt's turn.
 */
export function turnOfLines(lines: string[], prompt: string | null): TurnTranscript {
  let segment: TranscriptItem[][] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = classify(lines[i]);
    if (line.kind === 'assistant') segment.push(line.items);
    if (line.kind !== 'prompt') continue;
    if (prompt === null || line.text.trim() === prompt.trim()) return { items: segment.reverse().flat(), found: true };
    segment = [];
  }
  return { items: prompt === null ? segment.reverse().flat() : [], found: false };
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

/** A turn as read from the transcript, with the file's size and mtime when it was read. */
interface TranscriptRead {
  items: TranscriptItem[];
  /** The bytes read end here: what the file held then (lines appended later are not read). */
  size: number;
  mtimeMs: number;
}

/**
 * The turn of the transcript at `path` (see turnOfLines), or null when it cannot be read (not
 * an absolute path to a regular file). The server reads it on behalf of whoever holds the
 * agent token: a FIFO or a device must not stall it (hence the non-blocking open and the
 * file-type check), and a huge transcript is read no further back than MAX_TAIL_BYTES.
 */
export async function readTurnTranscript(path: string, prompt: string | null): Promise<TranscriptRead | null> {
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
    const { size, mtimeMs } = stats;
    for (let tail = FIRST_TAIL_BYTES; ; tail *= 4) {
      const start = Math.max(0, size - Math.min(tail, MAX_TAIL_BYTES));
      const lines = (await readRange(file, start, size - start)).split('\n');
      // The first line of a partial tail is cut mid-way: only whole lines count.
      if (start > 0) lines.shift();
      const turn = turnOfLines(lines, prompt);
      if (turn.found || start === 0 || tail >= MAX_TAIL_BYTES) return { items: turn.items, size, mtimeMs };
    }
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

const missingTools = (items: TranscriptItem[], toolUseIds: ReadonlySet<string>): number => {
  const written = new Set(items.map((item) => (item.kind === 'tool' ? item.id : null)));
  let missing = 0;
  for (const id of toolUseIds) if (!written.has(id)) missing++;
  return missing;
};

/** Whether the file at `path` may differ from what `read` read: Claude Code only appends. */
async function changedSince(path: string, read: TranscriptRead): Promise<boolean> {
  try {
    // A stat, not an open: nothing there (a FIFO put in its place) can block it.
    const now = await stat(path);
    return now.size !== read.size || now.mtimeMs !== read.mtimeMs;
  } catch {
    return true; // the read that follows fails the same way and says so
  }
}

/**
 * The turn as readTurnTranscript reads it, once it holds a tool call for each of
 * `toolUseIds` (the tool_use_ids the turn's hook events carried), re-reading until it does
 * or TRANSCRIPT_SETTLE_MS has passed; then what it holds by then. A poll that finds the file
 * as it was reads nothing. The reply itself needs no wait: Stop hands it over.
 */
export async function readSettledTurnTranscript(
  path: string, prompt: string | null, toolUseIds: ReadonlySet<string>,
): Promise<TranscriptItem[] | null> {
  const deadline = Date.now() + TRANSCRIPT_SETTLE_MS;
  let read = await readTurnTranscript(path, prompt);
  for (;;) {
    if (read === null || missingTools(read.items, toolUseIds) === 0 || Date.now() >= deadline) return read?.items ?? null;
    await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS));
    if (await changedSince(path, read)) read = await readTurnTranscript(path, prompt);
  }
}
