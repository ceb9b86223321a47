// The per-path summary a committed turn shows (FileChange): kind of change, rename origin and
// a cheap line count (a multiset comparison of lines, computed once at commit).
import type { ChangeKind, FileChange, SkipReason, State } from '../protocol.js';
import type { EntryRow } from './store.js';

/** Larger files get no line counts (nor are they read for them). */
export const TEXT_LIMIT = 1 << 20;
const SNIFF_BYTES = 8192;

export function isBinary(data: Uint8Array): boolean {
  const head = data.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return false;
  } catch {
    return true;
  }
}

function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Lines added and removed, comparing the two sides as multisets of lines. */
export function lineDelta(before: Buffer | null, after: Buffer | null): { added: number; removed: number } | undefined {
  for (const side of [before, after]) if (side && (side.length > TEXT_LIMIT || isBinary(side))) return undefined;
  const counts = new Map<string, number>();
  for (const line of lines(before?.toString('utf8') ?? '')) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of lines(after?.toString('utf8') ?? '')) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1); else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return { added, removed };
}

export function changeKind(before: State, after: State): ChangeKind {
  if (before === null) return after?.type === 'dir' ? 'dir-created' : 'created';
  if (after === null) return before.type === 'dir' ? 'dir-deleted' : 'deleted';
  if (before.type === 'dir' && after.type === 'dir') return 'mode-changed';
  if (before.type === 'file' && after.type === 'file' && before.hash !== '' && before.hash === after.hash) return 'mode-changed';
  return 'modified';
}

export interface PathRecord {
  uri: string;
  before: State;
  after: State;
  skipped?: SkipReason;
}

/** For each path that arrived by rename/move, the op and the path it started from. */
export function renameOrigins(entries: EntryRow[]): Map<string, { origin: string; op: 'rename' | 'move' }> {
  const cameFrom = new Map<string, { from: string; op: 'rename' | 'move' }>();
  for (const e of entries) {
    if ((e.op === 'rename' || e.op === 'move') && e.to_uri) cameFrom.set(e.to_uri, { from: e.uri, op: e.op });
  }
  const origins = new Map<string, { origin: string; op: 'rename' | 'move' }>();
  for (const [uri, link] of cameFrom) {
    let origin = link.from;
    const seen = new Set([uri]);
    while (cameFrom.has(origin) && !seen.has(origin)) { seen.add(origin); origin = cameFrom.get(origin)!.from; }
    origins.set(uri, { origin, op: link.op });
  }
  return origins;
}

export function buildChange(
  record: PathRecord, records: Map<string, PathRecord>, origins: Map<string, { origin: string; op: 'rename' | 'move' }>,
): FileChange {
  const change: FileChange = { uri: record.uri, change: changeKind(record.before, record.after), before: record.before, after: record.after };
  const link = origins.get(record.uri);
  if (link && record.before === null && record.after !== null && link.origin !== record.uri) {
    const origin = records.get(link.origin);
    if (origin?.before) {
      change.change = link.op === 'rename' ? 'renamed' : 'moved';
      change.from = link.origin;
    }
  }
  if (record.skipped) change.skipped = record.skipped;
  return change;
}
