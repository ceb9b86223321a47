// Looks into and damages the engine's stored contents from outside, as a disk fault or a
// person with sqlite3 would: through a second connection to the store's database.
import path from 'node:path';
import Database from 'better-sqlite3';
import { ContentParts, PARTS_PER_CONTENT } from '../engine/content/content-parts.js';
import { ContentStore } from '../engine/content/contents.js';
import { Store } from '../engine/db/store.js';

function openDb(dataDir: string, readonly: boolean): Database.Database {
  return new Database(path.join(dataDir, 'store', 'turnback.db'), { readonly, fileMustExist: true });
}

/** How many contents the store holds under a name (what `storeStats().blobs` counts). */
export function storedContentCount(dataDir: string): number {
  const db = openDb(dataDir, true);
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM contents WHERE hash IS NOT NULL').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Damages a stored content: its bytes overwritten with other bytes, or the content gone. */
export function damageContent(dataDir: string, hash: string, how: 'overwrite' | 'remove'): void {
  const db = openDb(dataDir, false);
  try {
    const row = db.prepare('SELECT id FROM contents WHERE hash = unhex(?)').get(hash) as { id: number } | undefined;
    if (!row) throw new Error(`no stored content ${hash}`);
    if (how === 'remove') {
      db.prepare('DELETE FROM contents WHERE id = ?').run(row.id);
    } else {
      db.prepare('UPDATE content_parts SET data = ? WHERE id >= ? AND id < ?').run(
        Buffer.from('not what was kept'),
        row.id * PARTS_PER_CONTENT,
        (row.id + 1) * PARTS_PER_CONTENT,
      );
    }
  } finally {
    db.close();
  }
}

/** How a stored content is encoded now: its codec, and for a delta its depth and its base's hash. */
export function storedEncoding(
  dataDir: string,
  hash: string,
): { codec: string; depth: number; base: string | null } | undefined {
  const db = openDb(dataDir, true);
  try {
    return db
      .prepare(
        `SELECT c.codec AS codec, c.depth AS depth, nullif(lower(hex(b.hash)), '') AS base FROM contents c
      LEFT JOIN contents b ON b.id = c.base_id WHERE c.hash = unhex(?)`,
      )
      .get(hash) as { codec: string; depth: number; base: string | null } | undefined;
  } finally {
    db.close();
  }
}

/**
 * Every content the store holds under a name, read back through the engine's own decoding (delta
 * chains included) and checked against its hash: the hashes that do not read back. For a
 * store no engine has open.
 */
export async function unreadableContents(dataDir: string): Promise<string[]> {
  const store = new Store(path.join(dataDir, 'store', 'turnback.db'));
  try {
    const contents = new ContentStore(store);
    const hashes = (
      store.db.prepare('SELECT lower(hex(hash)) AS hash FROM contents WHERE hash IS NOT NULL').all() as {
        hash: string;
      }[]
    ).map((r) => r.hash);
    const bad: string[] = [];
    for (const hash of hashes) if (!(await contents.verify(hash))) bad.push(hash);
    return bad;
  } finally {
    store.close();
  }
}

/** How many named contents are still raw (not packed yet), of how many. */
export function rawContents(dataDir: string): { raw: number; all: number } {
  const db = openDb(dataDir, true);
  try {
    return db
      .prepare('SELECT COALESCE(SUM(packed = 0), 0) AS raw, COUNT(*) AS "all" FROM contents WHERE hash IS NOT NULL')
      .get() as { raw: number; all: number };
  } finally {
    db.close();
  }
}

/** Every content written back raw, as captured: the store as it was before its packer ran. For a store no engine has open. */
export function unpackAll(dataDir: string): void {
  const store = new Store(path.join(dataDir, 'store', 'turnback.db'));
  try {
    const parts = new ContentParts(store.contents);
    const rows = store.db
      .prepare('SELECT lower(hex(hash)) AS hash FROM contents WHERE hash IS NOT NULL AND packed = 1')
      .all() as {
      hash: string;
    }[];
    store.transaction(() => {
      for (const { hash } of rows) parts.unpack(parts.byHash(hash)!);
    });
  } finally {
    store.close();
  }
}
