// Keeping the store's files small off the agent's path, between turns:
//   the WAL: checkpointed and its file emptied (TRUNCATE, never waiting) once it holds more
//     than CHECKPOINT_AT bytes; with another connection reading, checkpointed only (PASSIVE)
//     and its file cut back to that size when SQLite next restarts it (journal_size_limit, set
//     by Store); emptied (TRUNCATE) once the store has been idle a while;
//   free pages: a packed content frees the pages its raw parts filled. New captures reuse them,
//     so while the agent works a reserve stays; at rest they are given back to the filesystem
//     (incremental vacuum: stores created since schema 5 are in auto_vacuum = INCREMENTAL mode;
//     older ones keep their size, their free pages reused);
//   half-filled pages: rows deleted where they were (a content moved to the end of its tables
//     once packed) and keys appended to a WITHOUT ROWID table (split half and half) leave pages
//     part empty, about 8% of the commander.js store; at rest a small store that has grown
//     since is rewritten densely (VACUUM), a larger one keeps its pages.
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** What upkeep needs of the store (the Store itself; named here so neither module imports the other both ways). */
interface Store {
  readonly db: Database.Database;
  readonly file: string;
}

/**
 * WAL bytes past which a turn end checkpoints. Measured (150 ten-file turns of 10 KB files,
 * three stores interleaved turn by turn): median turn 19.2 ms at 256 KiB, 18.5 ms at 1 MiB,
 * 17.6 ms at 4 MiB, within the noise of a shared disk. A checkpoint copies every page the WAL
 * holds once, however often it was written since, so a larger bound copies less in all: over
 * 40 of item 15's 10-file turns on W2 (about 1 MiB of WAL each, capture and packing), the
 * checkpoints took 175 ms at 1 MiB, 70 ms at 4 MiB, 82 ms at 16 MiB (with longer single
 * stalls). 4 MiB: each checkpoint stays short (between turns, once the agent is quiet), the
 * file at most 4 MiB.
 */
export const CHECKPOINT_AT = 4 << 20;
/** Free bytes kept for the next captures while the agent works. */
const BUSY_RESERVE = 16 << 20;

function walBytes(store: Store): number {
  return statSync(`${store.file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * After a turn: copies the WAL back into the database once it has grown, and cuts its file to
 * nothing when no other connection holds it (TRUNCATE, never waiting; else PASSIVE). Left at
 * its size, the file was cut by the next write that restarted it (journal_size_limit), inside
 * that write: 25-30 ms of a rollback begun after a 1,000-file turn went on that cut.
 */
export function checkpointIfGrown(store: Store, at = CHECKPOINT_AT): void {
  if (walBytes(store) <= at) return;
  withoutWaiting(store, () => {
    const [result] = store.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (result?.busy) store.db.pragma('wal_checkpoint(PASSIVE)');
  });
}

/** Runs `run` with SQLite's busy timeout at 0: what another connection holds is left, never waited for. */
function withoutWaiting<T>(store: Store, run: () => T): T {
  const timeout = store.db.pragma('busy_timeout', { simple: true }) as number;
  store.db.pragma('busy_timeout = 0');
  try {
    return run();
  } finally {
    store.db.pragma(`busy_timeout = ${timeout}`);
  }
}

/** Gives free pages beyond `reserve` bytes back to the filesystem; answers how many. */
export function releaseFreePages(store: Store, reserve = BUSY_RESERVE): number {
  if (store.db.inTransaction || store.db.pragma('auto_vacuum', { simple: true }) !== 2) return 0;
  const pageSize = store.db.pragma('page_size', { simple: true }) as number;
  const free = store.db.pragma('freelist_count', { simple: true }) as number;
  const excess = free - Math.floor(reserve / pageSize);
  if (excess <= 0) return 0;
  store.db.pragma(`incremental_vacuum(${excess})`);
  return excess;
}

/**
 * Stores up to this size are rewritten densely at rest. A rewrite holds the store for its
 * length, and a request that comes meanwhile waits: measured here, 11 ms for the 1.3 MiB
 * commander.js store (1,316 → 1,212 KiB), about 0.15 s at this bound.
 */
export const COMPACT_LIMIT = 16 << 20;
/** Growth in pages since the last rewrite that makes another worth it. */
const COMPACT_GROWTH = 1 / 8;
const COMPACTED_KEY = 'compacted_pages';

/** Pages in use (free pages not counted), as the last rewrite left them, or 0. */
function compactedPages(store: Store): number {
  const row = store.db.prepare('SELECT value FROM meta WHERE key = ?').get(COMPACTED_KEY) as
    { value: string } | undefined;
  return Number(row?.value ?? 0) || 0;
}

/**
 * At rest, not inside a transaction: a store of COMPACT_LIMIT bytes at most, grown by
 * COMPACT_GROWTH since its last rewrite, rewritten with full pages; answers whether it was.
 * One transaction (SQLite's VACUUM): a kill leaves the store as it was. Never waits: with
 * another connection writing or reading, it is left for the next rest.
 */
export function compactIfGrown(store: Store, limit = COMPACT_LIMIT): boolean {
  if (store.db.inTransaction) return false;
  const pageSize = store.db.pragma('page_size', { simple: true }) as number;
  const used =
    (store.db.pragma('page_count', { simple: true }) as number) -
    (store.db.pragma('freelist_count', { simple: true }) as number);
  if (used * pageSize > limit || used < compactedPages(store) * (1 + COMPACT_GROWTH)) return false;
  try {
    withoutWaiting(store, () => store.db.exec('VACUUM'));
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY') || (e as { code?: string }).code === 'SQLITE_LOCKED')
      return false;
    throw e;
  }
  const after = store.db.pragma('page_count', { simple: true }) as number;
  store.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(COMPACTED_KEY, String(after));
  return true;
}

/**
 * At rest: every free page given back, a small store's pages filled (compactIfGrown), the WAL
 * emptied. Never waits: with another connection reading (a second process on the store), the
 * checkpoint is left for the next rest.
 */
export function tidyAtRest(store: Store): void {
  if (store.db.inTransaction) return;
  releaseFreePages(store, 0);
  compactIfGrown(store);
  withoutWaiting(store, () => store.db.pragma('wal_checkpoint(TRUNCATE)'));
}
