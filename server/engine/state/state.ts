// A path's state (docs/api.md `State`) and every question the engine asks of two states, in one
// place, each function named for its question. The workspace index's entries (what a scan saw)
// are asked the same questions with their stat fields.
import type { State } from '../../protocol.js';
import type { IndexEntry } from '../db/workspace-index.js';

export type { State };

/** The permission bits of a raw `st_mode` (what a state keeps and a rollback restores). */
export function modeOf(rawMode: number): number {
  return rawMode & 0o7777;
}

/** Is `b` exactly `a`, as a rollback restores it: content and mode for files, mode for directories, target for links. */
export function sameState(a: State, b: State): boolean {
  if (a === null || b === null) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === 'file' && b.type === 'file') return a.hash !== '' && a.hash === b.hash && a.mode === b.mode;
  if (a.type === 'dir' && b.type === 'dir') return a.mode === b.mode;
  if (a.type === 'symlink' && b.type === 'symlink') return a.target === b.target;
  if (a.type === 'special' && b.type === 'special') return a.kind === b.kind && a.mode === b.mode;
  return false;
}

/** Has the path drifted from what was expected there? Not when equal, or both directories whatever their modes. */
export function sameForDrift(current: State, expected: State): boolean {
  if (current?.type === 'dir' && expected?.type === 'dir') return true;
  return sameState(current, expected);
}

/** Does the path already hold the target's content (a file's bytes, a link's target, a directory), whatever its mode? */
export function sameContent(current: State, target: State): boolean {
  if (!current || !target || current.type !== target.type) return false;
  if (current.type === 'file' && target.type === 'file') return current.hash !== '' && current.hash === target.hash;
  if (current.type === 'symlink' && target.type === 'symlink') return current.target === target.target;
  return current.type === 'dir';
}

/** Does the path already have the target's mode (true where a mode does not apply)? */
export function sameMode(current: State, target: State): boolean {
  if (current?.type === 'file' && target?.type === 'file') return current.mode === target.mode;
  if (current?.type === 'dir' && target?.type === 'dir') return current.mode === target.mode;
  return true;
}

/** The content hashes these states name. */
export function stateHashes(...states: (State | undefined)[]): string[] {
  const hashes: string[] = [];
  for (const s of states) if (s && s.type === 'file' && s.hash) hashes.push(s.hash);
  return hashes;
}

/** Do two index entries hold the same state (what rollback restores): content and mode, a link's target, a directory's mode? */
export function sameIndexedState(a: IndexEntry | undefined, b: IndexEntry | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.type !== b.type || a.mode !== b.mode) return false;
  if (a.type === 'dir') return true;
  if (a.type === 'symlink' || a.type === 'special') return a.target === b.target;
  // A file whose content could not be kept is the same only while its stat is.
  if (a.hash === null || b.hash === null)
    return a.hash === b.hash && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
  return a.hash === b.hash;
}

/** Is the index entry unchanged in every field (so the index need not write it again)? */
export function sameIndexEntry(a: IndexEntry, b: IndexEntry): boolean {
  return (
    a.type === b.type &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.mode === b.mode &&
    a.hash === b.hash &&
    a.target === b.target &&
    a.skipped === b.skipped &&
    a.seenMs === b.seenMs
  );
}

/** Could `b` be `a` moved (the same file, folder or link, apart from the inode)? */
export function sameThingMoved(a: IndexEntry, b: IndexEntry): boolean {
  if (a.type !== b.type || a.mode !== b.mode) return false;
  if (a.type === 'file') return a.hash !== null && a.hash === b.hash && a.size === b.size;
  if (a.type === 'symlink') return a.target === b.target;
  return a.type === 'dir';
}
