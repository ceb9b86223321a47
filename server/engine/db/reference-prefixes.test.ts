import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
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
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-reference-prefixes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');

/** Bytes of the references and their by-turn index, pages included. */
const referenceBytes = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT SUM(pgsize) AS n FROM dbstat WHERE name IN ('blob_refs', 'blob_refs_by_turn')").get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
};

describe('schema 12: a store of schema 11 opens with its references by hash prefix, every one kept', () => {
  it('keeps every reference, sees exactly which contents are referenced and which turns saw each', () => {
    const file = path.join(dir, 'turnback.db');
    const old = writeOldStore(file, 400, 3, 11);
    const before = referenceBytes(file);
    const store = new Store(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect((store.db.prepare('SELECT COUNT(*) AS n FROM blob_refs').get() as { n: number }).n).toBe(old.refs);
      expect(new ContentStore(store).unreferenced().sort()).toEqual([...old.unreferenced].sort());
      // Turn 5's second write left a symlink: only its before-content is referenced.
      expect(store.entries.turnsReferring(hex('5/0/after'), 4)).toEqual(['t_00000005']);
      expect(store.entries.turnsReferring(hex('5/1/before'), 4)).toEqual(['t_00000005']);
      expect(store.entries.turnsReferring(hex('5/1/after'), 4)).toEqual([]);
      expect(store.entries.turnsReferring('not hex', 4)).toEqual([]);
    } finally {
      store.close();
    }
    expect(referenceBytes(file)).toBeLessThan(before * 0.6);
  });

  it("references written after it keep their contents, and a dropped turn's no longer do", () => {
    const file = path.join(dir, 'turnback.db');
    const old = writeOldStore(file, 3, 3, 11);
    const store = new Store(file);
    try {
      const contents = new ContentStore(store);
      const batch = contents.batch();
      const { hash } = batch.keepBytes(Buffer.from('kept by a new reference'));
      store.transaction(() => batch.commit());
      const turnId = [...old.entries.keys()][1];
      expect(contents.unreferenced()).toContain(hash);
      store.entries.addRef(hash, turnId);
      store.entries.addRef('not hex', turnId);
      expect(contents.unreferenced()).not.toContain(hash);
      expect(store.entries.turnsReferring(hash, 4)).toEqual([turnId]);
      const before = contents.unreferenced().length;
      store.dropTurn(turnId);
      const now = contents.unreferenced();
      expect(now).toContain(hash);
      expect(now.length).toBeGreaterThan(before);
    } finally {
      store.close();
    }
  });
});
