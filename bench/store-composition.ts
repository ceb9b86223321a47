// What a closed turnback store's bytes are: the kept contents (their rows and parts) against the
// rest (turns, entries, per-path changes, messages, references, indexes), read from SQLite's
// dbstat, plus the free pages. Where a store-size target is missed, this says where the bytes are.
import path from 'node:path';
import Database from 'better-sqlite3';

const CONTENT_TABLES = new Set([
  'contents',
  'content_parts',
  'sqlite_autoindex_contents_1',
  'contents_by_base',
  'contents_to_pack',
]);

export interface StoreComposition {
  contents: number;
  metadata: number;
  free: number;
  /** The largest tables and indexes outside the contents, largest first. */
  largest: { name: string; bytes: number }[];
}

export function storeComposition(dataDir: string): StoreComposition {
  const db = new Database(path.join(dataDir, 'store', 'turnback.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as { name: string; bytes: number }[];
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const free = (db.pragma('freelist_count', { simple: true }) as number) * pageSize;
    const contents = rows.filter((r) => CONTENT_TABLES.has(r.name)).reduce((n, r) => n + r.bytes, 0);
    const other = rows.filter((r) => !CONTENT_TABLES.has(r.name));
    return { contents, metadata: other.reduce((n, r) => n + r.bytes, 0), free, largest: other.slice(0, 4) };
  } finally {
    db.close();
  }
}
