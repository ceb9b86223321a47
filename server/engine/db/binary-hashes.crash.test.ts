// The migration to binary content hashes (schema 11) killed at random points: the store then
// opens, and is either wholly as it was (schema 10, every hash as hex) or wholly migrated,
// never half, and every content reads back by its hash.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore } from '../content/contents.js';
import { writeOldContents, type OldContents } from './old-contents.testutil.js';
import { migrateIn } from './migrate-child.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

const KILLS = Number(process.env.SPEC_CRASH_KILLS ?? 4);
const CHAINS = 5000;
const PER_CHAIN = 4;
/** The named contents, the staged one and the one whose hash is no sha256. */
const ROWS = CHAINS * PER_CHAIN + 2;

let dir: string;
let pristine: string;
let old: OldContents;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-binary-hashes-crash-'));
  pristine = path.join(dir, 'pristine.db');
  old = await writeOldContents(pristine, CHAINS, PER_CHAIN);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the file holds, read without migrating: its version, its content rows and the forms of their hashes. */
function inspect(file: string): { version: number; rows: number; forms: Record<string, number> } {
  const db = new Database(file);
  try {
    const forms = db.prepare('SELECT typeof(hash) AS t, COUNT(*) AS n FROM contents GROUP BY t').all() as {
      t: string;
      n: number;
    }[];
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      rows: (db.prepare('SELECT COUNT(*) AS n FROM contents').get() as { n: number }).n,
      forms: Object.fromEntries(forms.map((f) => [f.t, f.n])),
    };
  } finally {
    db.close();
  }
}

function expectEveryContent(file: string, context: string): void {
  const store = new Store(file);
  try {
    expect(store.db.pragma('user_version', { simple: true }), context).toBe(SCHEMA_VERSION);
    const contents = new ContentStore(store);
    for (const [hash, bytes] of old.bytes) {
      if (!contents.read(hash).equals(bytes)) expect.fail(`${context}: ${hash} does not read back`);
    }
    expect(store.contents.stagedIds(), context).toEqual([old.stagedId]);
    expect(contents.unreferenced().length, context).toBe(old.unreferenced.length + 1);
  } finally {
    store.close();
  }
}

describe('crash during the migration to binary content hashes', () => {
  it(
    `SIGKILL at random points (${KILLS}×): the store opens, old or new, never half, with every content`,
    async () => {
      // How long a whole migration takes here: the kills are spread over it.
      const whole = path.join(dir, 'whole.db');
      await copyFile(pristine, whole);
      const { migrated, openMs } = await migrateIn(whole, null);
      expect(migrated).toBe(true);
      expectEveryContent(whole, 'a migration left to finish');
      const seen = { old: 0, migrated: 0 };
      for (let kill = 0; kill < KILLS; kill++) {
        const file = path.join(dir, `kill-${kill}.db`);
        await copyFile(pristine, file);
        const killAfter = Math.floor(((kill + Math.random()) / KILLS) * openMs * 1.2);
        await migrateIn(file, killAfter);
        const found = inspect(file);
        const context = `kill ${kill} after ${killAfter} of ${Math.round(openMs)} ms`;
        if (found.version === 10) {
          seen.old++;
          expect(found, context).toEqual({ version: 10, rows: ROWS, forms: { text: ROWS - 1, null: 1 } });
        } else {
          seen.migrated++;
          // Migrated, and perhaps by some of the later migrations too (each is a transaction of its own).
          expect(found.version, context).toBeGreaterThanOrEqual(11);
          expect({ ...found, version: 11 }, context).toEqual({
            version: 11,
            rows: ROWS,
            forms: { blob: ROWS - 2, text: 1, null: 1 },
          });
        }
        // Opened again, it migrates what was left as it was: every content, as written.
        expectEveryContent(file, context);
      }
      console.log(
        `migration ${Math.round(openMs)} ms; killed before it committed ${seen.old}×, after ${seen.migrated}×`,
      );
    },
    KILLS * 30_000 + 30_000,
  );
});
