import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, SchemaTooNewError, migrate } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('store', () => {
  it('creates the schema at the current version, in WAL mode', () => {
    const store = new Store(path.join(dir, 'db'));
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('refuses a store written by a newer turnback, with a clear message, and leaves it alone', () => {
    const file = path.join(dir, 'db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => new Store(file)).toThrow(SchemaTooNewError);
    expect(() => new Store(file)).toThrow(
      expect.objectContaining({
        code: 'SCHEMA_TOO_NEW',
        details: { found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION },
      }),
    );
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('reopens an existing store without migrating again', () => {
    const file = path.join(dir, 'db');
    const first = new Store(file);
    first.sessions.upsert('s', 'webui', 'chat', 1, 'person');
    first.close();
    const again = new Store(file);
    expect(again.sessions.get('s')?.platform).toBe('webui');
    again.close();
  });

  it('migrates a version 1 store forward on open, keeping its rows', () => {
    const file = path.join(dir, 'db');
    const first = new Database(file);
    migrate(first, dir, 1);
    first
      .prepare(
        "INSERT INTO sessions (session_id, platform, session_type, last_activity) VALUES ('s', 'webui', 'chat', 1)",
      )
      .run();
    first.close();
    const again = new Store(file);
    expect(again.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    again.addPendingTemp('/x/.turnback-tmp-1');
    expect(again.pendingTemps()).toEqual(['/x/.turnback-tmp-1']);
    expect(again.sessions.get('s')?.platform).toBe('webui');
    // A session from before origins were kept is the person's (retention counts it with theirs).
    expect(again.sessions.get('s')?.origin).toBe('person');
    again.close();
  });

  it('never reuses a turn number, even after the session is deleted', () => {
    const store = new Store(path.join(dir, 'db'));
    store.sessions.upsert('s', 'webui', 'chat', 1, 'person');
    expect([store.sessions.nextNumber('s'), store.sessions.nextNumber('s')]).toEqual([1, 2]);
    store.deleteSession('s');
    expect(store.sessions.nextNumber('s')).toBe(3);
    expect(store.sessions.nextNumber('other')).toBe(1);
    store.close();
  });
});
