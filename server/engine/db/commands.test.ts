import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_TEXT_LIMIT } from '../../protocol.js';
import { cutToBytes } from './commands.js';
import { migrate } from './schema.js';
import { Store } from './store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-commands-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cutToBytes', () => {
  it('keeps the longest prefix of whole characters within the bound', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: 0, max: 60 }), (text, limit) => {
        const cut = cutToBytes(text, limit);
        expect(text.startsWith(cut)).toBe(true);
        expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
        const next = Array.from(text.slice(cut.length))[0];
        if (next !== undefined) expect(Buffer.byteLength(cut + next)).toBeGreaterThan(limit);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('schema 7: commands as rows', () => {
  it('migrates a store whose turns keep their commands as JSON, keeping every command, in order, each text bounded', () => {
    const file = path.join(dir, 'db');
    const old = new Database(file);
    migrate(old, dir, 6);
    const huge = 'x'.repeat(3 * COMMAND_TEXT_LIMIT);
    const commands = [
      {
        execId: 'x_1',
        tool: 'Bash',
        command: 'ls',
        at: '2026-01-01T00:00:00.000Z',
        endedAt: '2026-01-01T00:00:01.000Z',
        changed: ['workspace:/a'],
        scanned: true,
      },
      {
        execId: 'x_2',
        tool: 'Bash',
        command: huge,
        at: '2026-01-01T00:00:02.000Z',
        endedAt: '2026-01-01T00:00:03.000Z',
        changed: [],
        skipped: [{ uri: 'workspace:/big', reason: 'too-large' }],
        scanned: true,
      },
      {
        execId: 'x_3',
        tool: 'mcp__x',
        command: 'still open',
        at: '2026-01-01T00:00:04.000Z',
        endedAt: null,
        changed: null,
      },
    ];
    const insert =
      old.prepare(`INSERT INTO turns (turn_id, session_id, number, kind, title, status, started_at, exec_commands)
      VALUES (?, 's', ?, 'agent', '', 'committed', 0, ?)`);
    insert.run('t1', 1, JSON.stringify(commands));
    insert.run('t2', 2, '[]');
    old.close();

    const store = new Store(file);
    const columns = (store.db.prepare('PRAGMA table_info(turns)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('exec_commands');
    expect(store.turns.get('t1')?.title).toBe('');
    expect(store.commands.get('t1', 'x_1')).toEqual({ ...commands[0], commandBytes: 2 });
    expect(store.commands.get('t1', 'x_2')).toEqual({
      ...commands[1],
      command: 'x'.repeat(COMMAND_TEXT_LIMIT),
      commandBytes: 3 * COMMAND_TEXT_LIMIT,
      truncated: true,
    });
    expect(store.commands.get('t1', 'x_3')).toEqual({ ...commands[2], commandBytes: 10 });
    expect(store.commands.previews('t1').map((c) => c.execId)).toEqual(['x_1', 'x_2', 'x_3']);
    expect(store.commands.last('t1')?.execId).toBe('x_3');
    expect(store.commands.previews('t2')).toEqual([]);
    store.commands.add('t1', { execId: 'x_4', tool: 'Bash', command: 'pwd', at: '2026-01-01T00:00:05.000Z' });
    expect(store.commands.last('t1')?.execId).toBe('x_4');
    store.close();
  });
});
