import Database from 'better-sqlite3';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentStore, sha256 } from '../content/contents.js';
import { migrateIn } from './migrate-child.testutil.js';
import { writeOldStore } from './old-records.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';
import type { IndexEntry } from './workspace-index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-index-hashes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ODD = 'not a sha256';
const entryOf = (i: number, hash: string | null): IndexEntry => ({
  type: hash === null && i % 3 === 0 ? 'dir' : 'file',
  size: i,
  mtimeMs: 1_700_000_000_000 + i + 0.25,
  ctimeMs: 1_700_000_000_000 + i + 0.5,
  ino: 1000 + i,
  mode: 0o644,
  hash,
  target: null,
  skipped: hash === null && i % 3 !== 0 ? 'too-large' : null,
  seenMs: 1_700_000_000_000 + i,
});

/**
 * A store of schema 13 whose workspace index names `n` paths as that schema kept them (hex
 * hashes), one in ten without a hash, one with a hash that is no sha256; the contents of the
 * first ten paths stored, with a content nothing names.
 */
function oldIndex(at: string, n: number): { entries: Map<string, IndexEntry>; unreferenced: string[] } {
  const records = writeOldStore(at, 1, 1, 13);
  const db = new Database(at);
  const entries = new Map<string, IndexEntry>();
  const put = db.prepare(
    `INSERT INTO ws_index (uri, type, size, mtime_ms, ctime_ms, ino, mode, hash, target, skipped, seen_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const content = db.prepare(
    "INSERT INTO contents (hash, size, codec, parts, stored, packed) VALUES (unhex(?), ?, 'raw', 1, ?, 1)",
  );
  const part = db.prepare('INSERT INTO content_parts (id, data) VALUES (? * 65536, ?)');
  const keep = (bytes: Buffer) => {
    const id = Number(content.run(sha256(bytes), bytes.length, bytes.length).lastInsertRowid);
    part.run(id, bytes);
  };
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const bytes = Buffer.from(`file ${i}\n`);
      const hash = i === 7 ? ODD : i % 10 === 9 ? null : sha256(bytes);
      const entry = entryOf(i, hash);
      const uri = `workspace:/src/${String(i).padStart(6, '0')}.ts`;
      put.run(
        uri,
        entry.type,
        entry.size,
        entry.mtimeMs,
        entry.ctimeMs,
        entry.ino,
        entry.mode,
        entry.hash,
        entry.target,
        entry.skipped,
        entry.seenMs,
      );
      entries.set(uri, entry);
      if (i < 10 && i !== 7 && hash !== null) keep(bytes);
    }
    keep(Buffer.from('named by nothing'));
  })();
  db.close();
  return { entries, unreferenced: [...records.unreferenced, sha256(Buffer.from('named by nothing'))] };
}

const indexBytes = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT SUM(pgsize) AS n FROM dbstat WHERE name IN ('ws_index', 'ws_index_by_hash')").get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
};

describe('schema 14: the workspace index keeps its hashes as 32 bytes', () => {
  it('gives back every entry as it was, keeps the contents it names, and takes less room', () => {
    const at = path.join(dir, 'turnback.db');
    const old = oldIndex(at, 5000);
    const before = indexBytes(at);
    const store = new Store(at);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.index.all()).toEqual(old.entries);
      expect(new ContentStore(store).unreferenced().sort()).toEqual(old.unreferenced.sort());
      const forms = store.db.prepare('SELECT typeof(hash) AS t, COUNT(*) AS n FROM ws_index GROUP BY t').all();
      expect(forms).toEqual([
        { t: 'blob', n: 4499 },
        { t: 'null', n: 500 },
        { t: 'text', n: 1 },
      ]);
      // Written after it: as bytes, read back as hex.
      const next = entryOf(1, sha256(Buffer.from('after')));
      store.index.put('workspace:/next.ts', next);
      expect(store.index.all().get('workspace:/next.ts')).toEqual(next);
      expect(store.db.prepare("SELECT typeof(hash) AS t FROM ws_index WHERE uri = 'workspace:/next.ts'").get()).toEqual(
        {
          t: 'blob',
        },
      );
    } finally {
      store.close();
    }
    expect(indexBytes(at)).toBeLessThan(before * 0.8);
  });

  it('a migration killed at any point leaves the store old or new, never half, and opens', async () => {
    const pristine = path.join(dir, 'pristine.db');
    const old = oldIndex(pristine, 20_000);
    const whole = path.join(dir, 'whole.db');
    await copyFile(pristine, whole);
    const { openMs } = await migrateIn(whole, null);
    const KILLS = Number(process.env.SPEC_CRASH_KILLS ?? 4);
    for (let kill = 0; kill < KILLS; kill++) {
      const at = path.join(dir, `kill-${kill}.db`);
      await copyFile(pristine, at);
      await migrateIn(at, Math.floor(((kill + Math.random()) / KILLS) * openMs * 1.2));
      const raw = new Database(at);
      const version = raw.pragma('user_version', { simple: true }) as number;
      const hex = (raw.prepare("SELECT COUNT(*) AS n FROM ws_index WHERE typeof(hash) = 'text'").get() as { n: number })
        .n;
      raw.close();
      expect({ migrated: version >= 14, hex }).toEqual({ migrated: version >= 14, hex: version >= 14 ? 1 : 18_000 });
      const store = new Store(at);
      try {
        expect(store.index.all()).toEqual(old.entries);
      } finally {
        store.close();
      }
    }
  }, 120_000);
});
