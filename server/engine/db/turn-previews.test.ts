import Database from 'better-sqlite3';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileChange } from '../../protocol.js';
import { migrateIn } from './migrate-child.testutil.js';
import { writeOldStore } from './old-records.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-turn-previews-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = (hash: string) => ({ type: 'file' as const, hash: hash.repeat(64), size: 3, mode: 0o644 });
const dirState = { type: 'dir' as const, mode: 0o755 };

/** Turn 1's changes: folders among files, and a path of a root the preview does not take. */
const CHANGES: FileChange[] = [
  { uri: 'workspace:/src', change: 'dir-created', before: null, after: dirState },
  { uri: 'workspace:/src/a.ts', change: 'created', before: null, after: file('a') },
  { uri: 'data:/notes.md', change: 'modified', before: file('b'), after: file('c') },
  { uri: 'workspace:/old', change: 'dir-deleted', before: dirState, after: null },
  ...Array.from({ length: 7 }, (_, i): FileChange => ({
    uri: `workspace:/src/f${i}.ts`,
    change: 'modified',
    before: file('d'),
    after: file('e'),
  })),
];

describe('schema 13: a turn previews the paths it changed from its changes, kept once', () => {
  it("drops the turns' copy of their paths, and reads the preview from the changes: files only, in order, as many as asked", () => {
    const at = path.join(dir, 'turnback.db');
    const old = writeOldStore(at, 20, 3, 12);
    const turnId = [...old.entries.keys()][0];
    const raw = new Database(at);
    raw.prepare('UPDATE turns SET preview = ?').run(JSON.stringify(CHANGES.map((c) => c.uri)));
    raw.close();
    const store = new Store(at);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const columns = (store.db.prepare('PRAGMA table_info(turns)').all() as { name: string }[]).map((c) => c.name);
      expect(columns).not.toContain('preview');
      // Every turn still reads as it was written (the preview aside).
      expect(store.turns.get(turnId)).toMatchObject({ turnId, number: 1, title: 'turn 0', status: 'committed' });
      const workspace = (uri: string) => uri.startsWith('workspace:');
      expect(store.entries.previewOf(turnId, workspace, 5)).toEqual([
        'workspace:/src/file-0.ts',
        'workspace:/src/file-1.ts',
        'workspace:/src/file-2.ts',
      ]);
      store.transaction(() => store.entries.replaceChanges(turnId, CHANGES));
      expect(store.entries.previewOf(turnId, workspace, 5)).toEqual([
        'workspace:/src/a.ts',
        'workspace:/src/f0.ts',
        'workspace:/src/f1.ts',
        'workspace:/src/f2.ts',
        'workspace:/src/f3.ts',
      ]);
      expect(store.entries.previewOf(turnId, () => true, 2)).toEqual(['workspace:/src/a.ts', 'data:/notes.md']);
      expect(store.entries.previewOf(turnId, () => true, 0)).toEqual([]);
      expect(store.entries.previewOf('t_none', () => true, 5)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('a migration killed at any point leaves the store old or new, never half, and opens', async () => {
    const pristine = path.join(dir, 'pristine.db');
    writeOldStore(pristine, 3000, 2, 12);
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
      const columns = (raw.prepare('PRAGMA table_info(turns)').all() as { name: string }[]).map((c) => c.name);
      const turns = (raw.prepare('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
      raw.close();
      expect({ old: version === 12, preview: columns.includes('preview'), turns }).toEqual({
        old: version === 12,
        preview: version === 12,
        turns: 3000,
      });
      const store = new Store(at);
      try {
        expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
        expect(store.turns.get('t_00002999')).toMatchObject({ number: 3000, status: 'committed' });
        expect(store.entries.previewOf('t_00002999', () => true, 5)).toEqual([
          'workspace:/src/file-81.ts',
          'workspace:/src/file-82.ts',
        ]);
      } finally {
        store.close();
      }
    }
  }, 120_000);
});
