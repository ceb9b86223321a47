// Schema 16: the files a rollback writes over in place are named in the store, by turn, with
// the state each held and the state it is to hold, until the turn's commit drops them. A store
// of schema 15 opens into it with its turns as they were.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { State } from '../../protocol.js';
import { writeOldStore } from './old-records.testutil.js';
import { SCHEMA_VERSION } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-overwrites-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = (hash: string, size: number, mode = 0o644): State => ({ type: 'file', hash, size, mode });

describe('schema 16: the files a rollback writes over in place', () => {
  it('a store of schema 15 opens with none named, its turns as they were', () => {
    const at = path.join(dir, 'turnback.db');
    writeOldStore(at, 3, 2, 15);
    const store = new Store(at);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.turns.get('t_00000001')).toMatchObject({ number: 2, status: 'committed' });
      expect(store.overwrites.of('t_00000001')).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('names them by turn, with both states, until they are cleared (and with the turn dropped)', () => {
    const store = new Store(path.join(dir, 'turnback.db'));
    try {
      for (const turnId of ['t_a', 't_b'])
        store.turns.insert({
          turnId,
          sessionId: 's',
          number: turnId === 't_a' ? 1 : 2,
          kind: 'rollback',
          rollbackOf: [],
          title: 'x',
          startedAt: 1,
        });
      const a = { uri: 'workspace:/a.txt', before: file('aa'.repeat(32), 10), target: file('bb'.repeat(32), 3, 0o755) };
      const b = { uri: 'workspace:/b.txt', before: file('cc'.repeat(32), 1), target: file('dd'.repeat(32), 2) };
      store.transaction(() => {
        store.overwrites.add('t_a', [a, b]);
        store.overwrites.add('t_b', [b]);
      });
      expect(store.overwrites.of('t_a')).toEqual([a, b]);
      store.overwrites.clear('t_a');
      expect(store.overwrites.of('t_a')).toEqual([]);
      expect(store.overwrites.of('t_b')).toEqual([b]);
      store.transaction(() => store.dropTurn('t_b'));
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM overwrites').get()).toEqual({ n: 0 });
    } finally {
      store.close();
    }
  });
});
