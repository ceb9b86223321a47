// The `ws_index` table (what a scan last saw at every tracked path) and the `meta` flag that
// says whether it holds the whole tree. A file's hash is kept as its 32 bytes (schema 14) and
// answered as hex.
import { hashBytes, hashHex } from './hash-bytes.js';
import type { Statements } from './statements.js';

/** `special`: a FIFO, socket or device (its kind kept in `target`). */
export type IndexedType = 'file' | 'dir' | 'symlink' | 'special';

export interface IndexEntry {
  type: IndexedType;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  /** A file's content hash; null when its content could not be kept (see `skipped`). */
  hash: string | null;
  target: string | null;
  skipped: 'too-large' | 'budget' | 'unreadable' | null;
  /** When the scan that read this entry started (ms since the epoch): see `isRacy`. */
  seenMs: number;
}

interface IndexColumns {
  uri: string;
  type: IndexedType;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
  ino: number;
  mode: number;
  /** Text only for a hash kept from before schema 14 that was not a sha256's hex. */
  hash: Buffer | string | null;
  target: string | null;
  skipped: IndexEntry['skipped'];
  seen_ms: number;
}

export class IndexRows {
  constructor(private readonly store: Statements) {}

  get complete(): boolean {
    return (
      (this.store.st("SELECT value FROM meta WHERE key = 'index_complete'").get() as { value: string } | undefined)
        ?.value === '1'
    );
  }

  setComplete(complete: boolean): void {
    this.store.st("INSERT OR REPLACE INTO meta (key, value) VALUES ('index_complete', ?)").run(complete ? '1' : '0');
  }

  /** The bytes of the workspace's files as last indexed: what the default store budget scales with. */
  trackedBytes(): number {
    return (this.store.st('SELECT COALESCE(SUM(size), 0) AS n FROM ws_index').get() as { n: number }).n;
  }

  all(): Map<string, IndexEntry> {
    const rows = this.store.st('SELECT * FROM ws_index').all() as IndexColumns[];
    return new Map(
      rows.map((r) => [
        r.uri,
        {
          type: r.type,
          size: r.size,
          mtimeMs: r.mtime_ms,
          ctimeMs: r.ctime_ms,
          ino: r.ino,
          mode: r.mode,
          hash: hashHex(r.hash),
          target: r.target,
          skipped: r.skipped,
          seenMs: r.seen_ms,
        },
      ]),
    );
  }

  put(uri: string, entry: IndexEntry): void {
    this.store
      .st(
        `INSERT OR REPLACE INTO ws_index (uri, type, size, mtime_ms, ctime_ms, ino, mode, hash, target, skipped, seen_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        uri,
        entry.type,
        entry.size,
        entry.mtimeMs,
        entry.ctimeMs,
        entry.ino,
        entry.mode,
        entry.hash === null ? null : (hashBytes(entry.hash) ?? entry.hash),
        entry.target,
        entry.skipped,
        entry.seenMs,
      );
  }

  remove(uri: string): void {
    this.store.st('DELETE FROM ws_index WHERE uri = ?').run(uri);
  }
}
