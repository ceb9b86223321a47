import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentStore, sha256 } from '../content/contents.js';
import { ODD_HASH, writeOldContents } from './old-contents.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-binary-hashes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Bytes of the contents table and of its index on the hash, pages included. */
const contentRowBytes = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare(
          "SELECT SUM(pgsize) AS n FROM dbstat WHERE name IN ('contents', 'sqlite_autoindex_contents_1', 'sqlite_autoindex_contents_binary_1')",
        )
        .get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
};

describe('schema 11: a store of schema 10 opens with its contents under binary hashes, every one as it was', () => {
  it('reads every content back by its hash, byte for byte, and sees exactly which are referenced', async () => {
    const file = path.join(dir, 'turnback.db');
    const old = await writeOldContents(file, 300);
    const before = contentRowBytes(file);
    const store = new Store(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const contents = new ContentStore(store);
      for (const [hash, bytes] of old.bytes) {
        expect(contents.has(hash)).toBe(true);
        expect(contents.read(hash).equals(bytes), hash).toBe(true);
      }
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM contents WHERE codec = 'zstd-delta'").get()).toEqual({
        n: 300 * 3,
      });
      // The row whose hash is no sha256 is kept as it was, as text, and is listed as the sweep listed it.
      expect(store.db.prepare('SELECT typeof(hash) AS t, hash FROM contents WHERE id = ?').get(old.oddId)).toEqual({
        t: 'text',
        hash: ODD_HASH,
      });
      expect(contents.unreferenced().sort()).toEqual([...old.unreferenced, ODD_HASH].sort());
      // A staged content stays staged: the open's sweep of abandoned stagings still finds it.
      expect(store.contents.stagedIds()).toEqual([old.stagedId]);
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM contents WHERE typeof(hash) = 'blob'").get()).toEqual({
        n: old.bytes.size,
      });
    } finally {
      store.close();
    }
    expect(contentRowBytes(file)).toBeLessThan(before * 0.65);
  });

  it('keeps, finds and removes contents written after the migration; a name that is not a sha256 finds nothing', async () => {
    const file = path.join(dir, 'turnback.db');
    const old = await writeOldContents(file, 2);
    const store = new Store(file);
    try {
      const contents = new ContentStore(store);
      const bytes = Buffer.from('written after the migration\n');
      const batch = contents.batch();
      const { hash } = batch.keepBytes(bytes);
      store.transaction(() => batch.commit());
      expect(contents.read(hash).equals(bytes)).toBe(true);
      expect(store.db.prepare('SELECT typeof(hash) AS t FROM contents WHERE hash = unhex(?)').get(hash)).toEqual({
        t: 'blob',
      });
      await contents.pack();
      expect(contents.read(hash).equals(bytes)).toBe(true);
      expect(contents.has('not hex')).toBe(false);
      expect(contents.has(ODD_HASH)).toBe(false);
      expect(contents.has(sha256(Buffer.from('never kept')))).toBe(false);
      const gone = old.unreferenced[0];
      store.transaction(() => contents.removeAll([gone, hash]));
      expect(contents.has(gone)).toBe(false);
      expect(contents.has(hash)).toBe(false);
      for (const kept of old.referenced) expect(contents.read(kept).equals(old.bytes.get(kept)!)).toBe(true);
    } finally {
      store.close();
    }
  });
});
