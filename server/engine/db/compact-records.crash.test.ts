// The migration to compact records (schema 10) killed at random points: the store then opens,
// and is either wholly as it was (schema 9, every row) or wholly migrated, never half.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOldStore, type OldRecords } from './old-records.testutil.js';
import { migrateIn } from './migrate-child.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

const KILLS = Number(process.env.SPEC_CRASH_KILLS ?? 4);
const TURNS = 800;
const PER_TURN = 4;
const ROWS = TURNS * PER_TURN;

let dir: string;
let pristine: string;
let old: OldRecords;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-migrate-crash-'));
  pristine = path.join(dir, 'pristine.db');
  old = writeOldStore(pristine, TURNS, PER_TURN);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the file holds, read without migrating: its version and its rows' counts and forms. */
function inspect(file: string): { version: number; entries: number; changes: number; refs: number; form: string } {
  const db = new Database(file);
  try {
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const form = db.prepare('SELECT typeof(after) AS t FROM entries LIMIT 1').get() as { t: string };
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      entries: count('entries'),
      changes: count('changes'),
      refs: count('blob_refs'),
      form: form.t,
    };
  } finally {
    db.close();
  }
}

function expectEveryRecord(file: string, context: string): void {
  const store = new Store(file);
  try {
    expect(store.db.pragma('user_version', { simple: true }), context).toBe(SCHEMA_VERSION);
    const json = (state: unknown) => (state === null ? null : JSON.stringify(state));
    for (const [turnId, entries] of old.entries) {
      const now = store.entries.of(turnId).map((e) => ({ seq: e.seq, before: json(e.before), after: json(e.after) }));
      expect(now, `${context}: entries of ${turnId}`).toEqual(entries);
      const changes = store.entries.changesOf(turnId).map((c, ord) => ({ ord, uri: c.uri, data: JSON.stringify(c) }));
      expect(changes, `${context}: changes of ${turnId}`).toEqual(old.changes.get(turnId));
    }
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM blob_refs').get() as { n: number }).n, context).toBe(old.refs);
  } finally {
    store.close();
  }
}

describe('crash during the migration to compact records', () => {
  it(
    `SIGKILL at random points (${KILLS}×): the store opens, old or new, never half, with every record`,
    async () => {
      // How long a whole migration takes here: the kills are spread over it.
      const whole = path.join(dir, 'whole.db');
      await copyFile(pristine, whole);
      const { migrated, openMs } = await migrateIn(whole, null);
      expect(migrated).toBe(true);
      expectEveryRecord(whole, 'a migration left to finish');
      const seen = { old: 0, migrated: 0 };
      for (let kill = 0; kill < KILLS; kill++) {
        const file = path.join(dir, `kill-${kill}.db`);
        await copyFile(pristine, file);
        const killAfter = Math.floor(((kill + Math.random()) / KILLS) * openMs * 1.2);
        await migrateIn(file, killAfter);
        const found = inspect(file);
        const context = `kill ${kill} after ${killAfter} of ${Math.round(openMs)} ms`;
        if (found.version === 9) {
          seen.old++;
          expect(found, context).toEqual({ version: 9, entries: ROWS, changes: ROWS, refs: old.refs, form: 'text' });
        } else {
          seen.migrated++;
          // Migrated, and perhaps by some of the later migrations too (each is a transaction of its own).
          expect(found.version, context).toBeGreaterThanOrEqual(10);
          expect({ ...found, version: 10 }, context).toEqual({
            version: 10,
            entries: ROWS,
            changes: ROWS,
            refs: old.refs,
            form: 'blob',
          });
        }
        // Opened again, it migrates what was left as it was: every record, as written.
        expectEveryRecord(file, context);
      }
      console.log(
        `migration ${Math.round(openMs)} ms; killed before it committed ${seen.old}×, after ${seen.migrated}×`,
      );
    },
    KILLS * 30_000 + 30_000,
  );
});
