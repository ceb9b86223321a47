import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentStore } from '../content/contents.js';
import { writeOldStore } from './old-records.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-compact-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytesOf = (file: string, table: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT SUM(payload) AS n FROM dbstat WHERE name = ?').get(table) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('schema 10: a store of schema 9 opens with its records compact, every one as it was', () => {
  it('gives back every entry and change as the JSON it was written as, and keeps every reference', () => {
    const file = path.join(dir, 'turnback.db');
    const old = writeOldStore(file, 60);
    const before = {
      entries: bytesOf(file, 'entries'),
      changes: bytesOf(file, 'changes'),
      refs: bytesOf(file, 'blob_refs'),
    };
    const store = new Store(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const json = (state: unknown) => (state === null ? null : JSON.stringify(state));
      for (const [turnId, entries] of old.entries)
        expect(
          store.entries.of(turnId).map((e) => ({ seq: e.seq, before: json(e.before), after: json(e.after) })),
        ).toEqual(entries);
      for (const [turnId, changes] of old.changes)
        expect(store.entries.changesOf(turnId).map((c, ord) => ({ ord, uri: c.uri, data: JSON.stringify(c) }))).toEqual(
          changes,
        );
      const refs = store.db.prepare('SELECT COUNT(*) AS n FROM blob_refs').get() as { n: number };
      expect(refs.n).toBe(old.refs);
      // The sweep still sees exactly which contents are referenced.
      expect(new ContentStore(store).unreferenced().sort()).toEqual([...old.unreferenced].sort());
    } finally {
      store.close();
    }
    // Binary hashes: under half the bytes each table had.
    expect(bytesOf(file, 'entries')).toBeLessThan(before.entries / 2);
    expect(bytesOf(file, 'changes')).toBeLessThan(before.changes / 2);
    expect(bytesOf(file, 'blob_refs')).toBeLessThan(before.refs);
  });

  it("a turn's rows left behind by a turn that no longer exists do not stop the migration, and are left out", () => {
    const file = path.join(dir, 'turnback.db');
    const old = writeOldStore(file, 3);
    const raw = new Database(file);
    raw
      .prepare(
        "INSERT INTO entries (turn_id, seq, op, uri, before, after) VALUES ('t_gone', 1, 'write', 'workspace:/x', NULL, NULL)",
      )
      .run();
    raw.prepare("INSERT INTO changes (turn_id, ord, uri, data) VALUES ('t_gone', 0, 'workspace:/x', '{}')").run();
    raw.prepare("INSERT INTO blob_refs (hash, turn_id) VALUES (?, 't_gone')").run('ab'.repeat(32));
    raw.close();
    const store = new Store(file);
    try {
      const count = (table: string) =>
        (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(count('entries')).toBe(9);
      expect(count('changes')).toBe(9);
      expect(count('blob_refs')).toBe(old.refs);
    } finally {
      store.close();
    }
  });

  it('new records written after the migration read back, and a turn dropped takes its rows with it', () => {
    const file = path.join(dir, 'turnback.db');
    const old = writeOldStore(file, 3);
    const store = new Store(file);
    try {
      const turnId = [...old.entries.keys()][1];
      const after = { type: 'file' as const, hash: 'ef'.repeat(32), size: 9, mode: 420 };
      store.entries.setAfter(turnId, 1, after, null);
      expect(store.entries.of(turnId)[0].after).toEqual(after);
      store.entries.addRef('ef'.repeat(32), turnId);
      // What is not a sha256 names no content: nothing to keep, no row.
      store.entries.addRef('not hex', turnId);
      expect(
        store.db
          .prepare(
            'SELECT lower(hex(hash_prefix)) AS h FROM blob_refs WHERE turn = (SELECT id FROM turns WHERE turn_id = ?)',
          )
          .all(turnId),
      ).toContainEqual({
        h: 'ef'.repeat(8),
      });
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM blob_refs WHERE length(hash_prefix) != 8').get()).toEqual({
        n: 0,
      });
      store.dropTurn(turnId);
      expect(store.entries.of(turnId)).toEqual([]);
      expect(store.entries.changesOf(turnId)).toEqual([]);
      expect(
        store.db
          .prepare('SELECT COUNT(*) AS n FROM blob_refs WHERE turn = (SELECT id FROM turns WHERE turn_id = ?)')
          .get(turnId),
      ).toEqual({ n: 0 });
    } finally {
      store.close();
    }
  });
});
