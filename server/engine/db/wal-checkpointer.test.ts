// The WAL checkpointed from a thread while a scan stores much: the main connection stops
// checkpointing inside its commits, the thread copies what they wrote into the database file,
// and once ended the main connection checkpoints on its own again; a store closed meanwhile
// keeps every committed row.
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-wal-checkpointer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fill = (store: Store, from: number, n: number) => {
  const put = store.db.prepare("INSERT INTO meta (key, value) VALUES (?, printf('%.2000c', 'x'))");
  for (let i = from; i < from + n; i++) store.relaxed(() => put.run(`k${i}`));
};
const until = async (done: () => boolean) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  return done();
};

describe('checkpoints offloaded to a thread', () => {
  it('copies the commits into the database file meanwhile, and hands the checkpoints back once ended', async () => {
    const file = path.join(dir, 'turnback.db');
    const store = new Store(file);
    try {
      const dbBytes = () => statSync(file).size;
      const end = store.offloadCheckpoints();
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const before = dbBytes();
      fill(store, 0, 2000); // about 4 MB, each its own commit
      // Nothing on this connection checkpoints now: the file grows from the thread's copies.
      expect(await until(() => dbBytes() > before + 2_000_000)).toBe(true);
      await end();
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16384);
      expect((store.db.prepare('SELECT COUNT(*) AS n FROM meta WHERE key LIKE ?').get('k%') as { n: number }).n).toBe(
        2000,
      );
    } finally {
      store.close();
    }
  });

  it('leaves every committed row when the store closes while the thread runs', async () => {
    const file = path.join(dir, 'turnback.db');
    const store = new Store(file);
    store.offloadCheckpoints();
    fill(store, 0, 500);
    store.close();
    const again = new Store(file);
    try {
      expect((again.db.prepare('SELECT COUNT(*) AS n FROM meta WHERE key LIKE ?').get('k%') as { n: number }).n).toBe(
        500,
      );
      expect(again.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16384);
    } finally {
      again.close();
    }
  });
});
