// Schema 15: the workspace index keeps no index by hash (every scan paid a random insert per
// stored file for it); the search for contents nothing needs still leaves out every content
// the index names, by the index's hashes read once.
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentStore, sha256 } from '../content/contents.js';
import { writeOldStore } from './old-records.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-index-by-hash-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const indexesOf = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'ws_index'").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .filter((name) => !name.startsWith('sqlite_autoindex'));

describe('schema 15: no index by hash on the workspace index', () => {
  it('drops it, and the contents the index names stay needed', () => {
    const at = path.join(dir, 'turnback.db');
    const records = writeOldStore(at, 1, 1, 14);
    const db = new Database(at);
    expect(indexesOf(db)).toEqual(['ws_index_by_hash']);
    const named = [0, 1, 2].map((i) => Buffer.from(`named ${i}\n`));
    const loose = Buffer.from('named by nothing\n');
    db.transaction(() => {
      for (const bytes of [...named, loose]) {
        const id = db
          .prepare(
            "INSERT INTO contents (hash, size, codec, parts, stored, packed) VALUES (unhex(?), ?, 'raw', 1, ?, 1)",
          )
          .run(sha256(bytes), bytes.length, bytes.length).lastInsertRowid;
        db.prepare('INSERT INTO content_parts (id, data) VALUES (? * 65536, ?)').run(id, bytes);
      }
      named.forEach((bytes, i) =>
        db
          .prepare(
            `INSERT INTO ws_index (uri, type, size, mtime_ms, ctime_ms, ino, mode, hash, target, skipped, seen_ms)
            VALUES (?, 'file', ?, 1, 1, ?, 420, unhex(?), NULL, NULL, 1)`,
          )
          .run(`workspace:/f${i}.txt`, bytes.length, 100 + i, sha256(bytes)),
      );
    })();
    db.close();

    const store = new Store(at);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(indexesOf(store.db)).toEqual([]);
      expect(new ContentStore(store).unreferenced().sort()).toEqual([...records.unreferenced, sha256(loose)].sort());
      // A path the index stops naming leaves its content unneeded.
      store.index.remove('workspace:/f1.txt');
      expect(new ContentStore(store).unreferenced()).toContain(sha256(named[1]));
    } finally {
      store.close();
    }
  });
});
