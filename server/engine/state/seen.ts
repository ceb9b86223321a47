// What planning saw at a path, by its lstat: enough to tell later, without reading the file
// again, that it still holds what planning read (the trust the scans give the workspace index:
// the same inode, size, mtime, ctime and mode). A file changed within the timestamp tick it was
// last changed in keeps all of those, so a file changed too recently before planning is never
// trusted by them ("racy", git's term) and is read again instead.
import { constants, type Stats } from 'node:fs';

export interface Seen {
  ino: number;
  dev: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** The whole st_mode: the kind of thing and its permission bits. */
  mode: number;
  /** When planning took the lstat (ms since the epoch, the clock file times are set by). */
  atMs: number;
}

/**
 * How long after a file's last change its stat can be trusted: the workspace index's margin
 * (record/workspace-index.ts, `RACY_MS`), which covers coarse timestamps (FAT's 2 s, whole
 * seconds) and a file server's clock. (A finer margin for filesystems with nanosecond times
 * would trust files sooner, but it made the number of operations of a rollback depend on how
 * fast the machine ran, which the crash sweep counts and cuts at.)
 */
const RACY_MS = 2_000;

export function seenOf(stats: Stats, atMs: number): Seen {
  const { ino, dev, size, mtimeMs, ctimeMs, mode } = stats;
  return { ino, dev, size, mtimeMs, ctimeMs, mode, atMs };
}

/** Whether a stat equal to `seen` later still means the content planning read (not racy). */
export function trustworthy(seen: Seen): boolean {
  return Math.max(seen.mtimeMs, seen.ctimeMs) < seen.atMs - RACY_MS;
}

/**
 * Whether the path still holds what planning saw there: absent as it was, or the same inode
 * with the same size, times and mode. A directory by its inode and mode only (its times move
 * with what is made inside it, the rollback's own temp files included).
 */
export function unchangedSince(seen: Seen | null, now: Stats | null): boolean {
  if (seen === null || now === null) return seen === now;
  if (seen.ino !== now.ino || seen.dev !== now.dev || seen.mode !== now.mode) return false;
  if ((now.mode & constants.S_IFMT) === constants.S_IFDIR) return true;
  return seen.size === now.size && seen.mtimeMs === now.mtimeMs && seen.ctimeMs === now.ctimeMs;
}
