// Keeping the store's files small off the agent's path, between turns:
//   the WAL: checkpointed (PASSIVE, never waiting) once it holds more than CHECKPOINT_AT bytes,
//     and its file cut back to that size when SQLite restarts it (journal_size_limit, set by
//     Store); emptied (TRUNCATE) once the store has been idle a while;
//   free pages: a packed content frees the pages its raw parts filled. New captures reuse them,
//     so while the agent works a reserve stays; at rest they are given back to the filesystem
//     (incremental vacuum: stores created since schema 5 are in auto_vacuum = INCREMENTAL mode;
//     older ones keep their size, their free pages reused).
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
 * 17.6 ms at 4 MiB, within the noise of a shared disk; 1 MiB keeps the WAL a quarter the size.
 */
export const CHECKPOINT_AT = 1 << 20;
/** Free bytes kept for the next captures while the agent works. */
const BUSY_RESERVE = 16 << 20;

function walBytes(store: Store): number {
  return statSync(`${store.file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

/** After a turn: copies the WAL back into the database once it has grown. */
export function checkpointIfGrown(store: Store, at = CHECKPOINT_AT): void {
  if (walBytes(store) > at) store.db.pragma('wal_checkpoint(PASSIVE)');
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
 * At rest: every free page given back, the WAL emptied. Never waits: with another connection
 * reading (a second process on the store), the checkpoint is left for the next rest.
 */
export function tidyAtRest(store: Store): void {
  if (store.db.inTransaction) return;
  releaseFreePages(store, 0);
  const timeout = store.db.pragma('busy_timeout', { simple: true }) as number;
  store.db.pragma('busy_timeout = 0');
  try {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.db.pragma(`busy_timeout = ${timeout}`);
  }
}
