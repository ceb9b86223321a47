// A command's moves, told from what its after scan saw: a path that was there before and is
// gone, and one that was not there (or held another file) and now holds the same file — the
// same inode with the same content, or failing that the same content — are one move (as `mv`,
// `git mv` or a script's rename make them, or a copy then a delete). Recorded as a rename or
// move entry, it is shown as one row with `from` and rolled back by moving it back.
import { parseUri } from '../paths/uri.js';
import type { IndexEntry } from './workspace-index.js';
import { sameThingMoved } from '../state/state.js';

export interface ExecMove {
  from: string;
  to: string;
  op: 'rename' | 'move';
}

function parentOf(uri: string): string {
  const { root, segments } = parseUri(uri);
  return `${root}:/${segments.slice(0, -1).join('/')}`;
}

/**
 * Pairs, among `changed`, each path the command took away with the path it went to. By inode
 * first (a folder only by inode: two folders of the same mode are not the same folder), then
 * by content for files and links (an empty file is too common a content to tell a move by).
 */
export function findMoves(
  changed: readonly string[],
  baseline: ReadonlyMap<string, IndexEntry>,
  current: ReadonlyMap<string, IndexEntry>,
): ExecMove[] {
  if (changed.length < 2) return [];
  const gone: string[] = [];
  const arrived: string[] = [];
  for (const uri of changed) {
    const before = baseline.get(uri);
    const after = current.get(uri);
    if (before && !after && !before.skipped) gone.push(uri);
    // Arrived: new here, or another file in place of the one there was (`mv a b` over an existing b).
    else if (after && !after.skipped && (!before || before.ino !== after.ino || before.type !== after.type))
      arrived.push(uri);
  }
  if (gone.length === 0 || arrived.length === 0) return [];
  const taken = new Set<string>();
  const moves: ExecMove[] = [];
  const pair = (from: string, to: string) => {
    taken.add(to);
    moves.push({ from, to, op: parentOf(from) === parentOf(to) ? 'rename' : 'move' });
  };
  const byInode = new Map<string, string>();
  for (const uri of arrived) byInode.set(`${current.get(uri)!.type}:${current.get(uri)!.ino}`, uri);
  const unpaired: string[] = [];
  for (const from of gone) {
    const before = baseline.get(from)!;
    const to = byInode.get(`${before.type}:${before.ino}`);
    if (to && !taken.has(to) && sameThingMoved(before, current.get(to)!)) pair(from, to);
    else if (before.type !== 'dir' && !(before.type === 'file' && before.size === 0)) unpaired.push(from);
  }
  if (unpaired.length === 0) return inheritOps(moves);
  const byContent = new Map<string, string[]>();
  const contentKey = (e: IndexEntry) => (e.type === 'file' ? `f:${e.hash}:${e.mode}` : `l:${e.target}`);
  for (const uri of arrived) {
    const entry = current.get(uri)!;
    if (taken.has(uri) || entry.type === 'dir') continue;
    const key = contentKey(entry);
    byContent.set(key, [...(byContent.get(key) ?? []), uri]);
  }
  for (const from of unpaired) {
    const candidates = byContent.get(contentKey(baseline.get(from)!));
    const to = candidates?.find((uri) => !taken.has(uri));
    if (to && sameThingMoved(baseline.get(from)!, current.get(to)!)) pair(from, to);
  }
  return inheritOps(moves);
}

/** What a moved folder carried keeps the folder's op (`mv lib/x lib/y` renames lib/x/one.txt too). */
function inheritOps(moves: ExecMove[]): ExecMove[] {
  const byFrom = new Map(moves.map((m) => [m.from, m]));
  const depth = (uri: string) => parseUri(uri).segments.length;
  for (const move of [...moves].sort((a, b) => depth(a.from) - depth(b.from))) {
    const parent = byFrom.get(parentOf(move.from));
    if (parent && parent.to === parentOf(move.to)) move.op = parent.op;
  }
  return moves;
}
