// The per-path summary a committed turn shows (FileChange): kind of change, rename origin and
// a cheap line count (a multiset comparison of lines, computed once at commit).
import type { ChangeKind, FileChange, SkipReason, State } from '../../protocol.js';
import { isUtf8 } from 'node:buffer';
import type { StoredEntry } from '../db/entries.js';

/** Larger files get no line counts (nor are they read for them). */
export const TEXT_LIMIT = 1 << 20;
const SNIFF_BYTES = 8192;

export function isBinary(data: Uint8Array): boolean {
  if (data.subarray(0, SNIFF_BYTES).includes(0)) return true;
  return !isUtf8(data);
}

function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const NEWLINE = 10;

/**
 * The two sides without the whole lines they share at the start and at the end: removing equal
 * lines from both sides leaves their multiset difference unchanged, and an agent's edit
 * usually touches a few lines in the middle of a file.
 */
function middles(a: Buffer, b: Buffer): [Buffer, Buffer] {
  const max = Math.min(a.length, b.length);
  let same = 0;
  while (same < max && a[same] === b[same]) same++;
  const start = same === 0 ? 0 : a.lastIndexOf(NEWLINE, same - 1) + 1;
  let tail = 0;
  while (tail < max - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // The shared end is cut just after a newline inside it, so it holds whole lines on both sides.
  const cut = a.indexOf(NEWLINE, a.length - tail);
  const end = cut === -1 ? 0 : a.length - (cut + 1);
  return [a.subarray(start, a.length - end), b.subarray(start, b.length - end)];
}

/**
 * The key of a change between two contents (a file's hash, or nothing there) for known line
 * counts; none when a side is not a file with a hash. The counts are symmetric: those of the
 * change back are the same two numbers swapped.
 */
export function linesKey(before: State, after: State): string | null {
  const side = (s: State) => (s === null ? '' : s.type === 'file' && s.hash !== '' ? s.hash : null);
  const [a, b] = [side(before), side(after)];
  return a === null || b === null ? null : `${a}>${b}`;
}

/** Lines added and removed, comparing the two sides as multisets of lines. */
export function lineDelta(before: Buffer | null, after: Buffer | null): { added: number; removed: number } | undefined {
  for (const side of [before, after]) if (side && (side.length > TEXT_LIMIT || isBinary(side))) return undefined;
  const [a, b] = middles(before ?? Buffer.alloc(0), after ?? Buffer.alloc(0));
  const counts = new Map<string, number>();
  for (const line of lines(a.toString('utf8'))) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of lines(b.toString('utf8'))) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return { added, removed };
}

export function changeKind(before: State, after: State): ChangeKind {
  if (before === null) return after?.type === 'dir' ? 'dir-created' : 'created';
  if (after === null) return before.type === 'dir' ? 'dir-deleted' : 'deleted';
  if (before.type === 'dir' && after.type === 'dir') return 'mode-changed';
  if (before.type === 'file' && after.type === 'file' && before.hash !== '' && before.hash === after.hash)
    return 'mode-changed';
  return 'modified';
}

export interface PathRecord {
  uri: string;
  before: State;
  after: State;
  skipped?: SkipReason;
  /** What is there at commit cannot be captured (too large, unreadable): a rollback will not change it either. */
  afterSkipped?: SkipReason;
}

/** For each path that arrived by rename/move, the op and the path it started from. */
export function renameOrigins(entries: StoredEntry[]): Map<string, { origin: string; op: 'rename' | 'move' }> {
  const cameFrom = new Map<string, { from: string; op: 'rename' | 'move' }>();
  for (const e of entries) {
    if ((e.op === 'rename' || e.op === 'move') && e.toUri) cameFrom.set(e.toUri, { from: e.uri, op: e.op });
  }
  const origins = new Map<string, { origin: string; op: 'rename' | 'move' }>();
  for (const [uri, link] of cameFrom) {
    let origin = link.from;
    const seen = new Set([uri]);
    while (cameFrom.has(origin) && !seen.has(origin)) {
      seen.add(origin);
      origin = cameFrom.get(origin)!.from;
    }
    origins.set(uri, { origin, op: link.op });
  }
  return origins;
}

export function buildChange(
  record: PathRecord,
  records: Map<string, PathRecord>,
  origins: Map<string, { origin: string; op: 'rename' | 'move' }>,
): FileChange {
  const change: FileChange = {
    uri: record.uri,
    change: changeKind(record.before, record.after),
    before: record.before,
    after: record.after,
  };
  const link = origins.get(record.uri);
  if (link && record.before === null && record.after !== null && link.origin !== record.uri) {
    const origin = records.get(link.origin);
    if (origin?.before) {
      change.change = link.op === 'rename' ? 'renamed' : 'moved';
      change.from = link.origin;
    }
  }
  const skipped = record.skipped ?? record.afterSkipped;
  if (skipped) change.skipped = skipped;
  return change;
}
