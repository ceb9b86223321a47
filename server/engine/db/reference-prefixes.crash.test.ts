// The migration to references by hash prefix (schema 12) killed at random points: the store
// then opens, and is either wholly as it was (schema 11, every reference by its whole hash) or
// wholly migrated, never half, and keeps exactly the contents it kept.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore } from '../content/contents.js';
import { migrateIn } from './migrate-child.testutil.js';
import { writeOldStore, type OldRecords } from './old-records.testutil.js';
import { REFERENCE_PREFIX } from './reference-prefixes.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

const KILLS = Number(process.env.SPEC_CRASH_KILLS ?? 4);
const TURNS = 3000;
const PER_TURN = 4;

let dir: string;
let pristine: string;
let old: OldRecords;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-reference-prefixes-crash-'));
  pristine = path.join(dir, 'pristine.db');
  old = writeOldStore(pristine, TURNS, PER_TURN, 11);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the file holds, read without migrating: its version, and its references by the length of what names their content. */
function inspect(file: string): { version: number; lengths: Record<number, number> } {
  const db = new Database(file);
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const column = version >= 12 ? 'hash_prefix' : 'hash';
    const lengths = db.prepare(`SELECT length(${column}) AS l, COUNT(*) AS n FROM blob_refs GROUP BY l`).all() as {
      l: number;
      n: number;
    }[];
    return { version, lengths: Object.fromEntries(lengths.map((r) => [r.l, r.n])) };
  } finally {
    db.close();
  }
}

function expectEveryReference(file: string, context: string): void {
  const store = new Store(file);
  try {
    expect(store.db.pragma('user_version', { simple: true }), context).toBe(SCHEMA_VERSION);
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM blob_refs').get() as { n: number }).n, context).toBe(old.refs);
    expect(new ContentStore(store).unreferenced().sort(), context).toEqual([...old.unreferenced].sort());
    for (const hash of old.referenced) expect(store.entries.turnsReferring(hash, 4).length, context).toBeGreaterThan(0);
  } finally {
    store.close();
  }
}

describe('crash during the migration to references by hash prefix', () => {
  it(
    `SIGKILL at random points (${KILLS}×): the store opens, old or new, never half, with every reference`,
    async () => {
      const whole = path.join(dir, 'whole.db');
      await copyFile(pristine, whole);
      const { migrated, openMs } = await migrateIn(whole, null);
      expect(migrated).toBe(true);
      expectEveryReference(whole, 'a migration left to finish');
      const seen = { old: 0, migrated: 0 };
      for (let kill = 0; kill < KILLS; kill++) {
        const file = path.join(dir, `kill-${kill}.db`);
        await copyFile(pristine, file);
        const killAfter = Math.floor(((kill + Math.random()) / KILLS) * openMs * 1.2);
        await migrateIn(file, killAfter);
        const found = inspect(file);
        const context = `kill ${kill} after ${killAfter} of ${Math.round(openMs)} ms`;
        if (found.version === 11) {
          seen.old++;
          expect(found, context).toEqual({ version: 11, lengths: { 32: old.refs } });
        } else {
          seen.migrated++;
          // Migrated, and perhaps by some of the later migrations too (each is a transaction of its own).
          expect(found.version, context).toBeGreaterThanOrEqual(12);
          expect(found.lengths, context).toEqual({ [REFERENCE_PREFIX]: old.refs });
        }
        // Opened again, it migrates what was left as it was.
        expectEveryReference(file, context);
      }
      console.log(
        `migration ${Math.round(openMs)} ms; killed before it committed ${seen.old}×, after ${seen.migrated}×`,
      );
    },
    KILLS * 30_000 + 30_000,
  );
});
