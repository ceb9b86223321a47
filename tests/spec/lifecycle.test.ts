// Turn lifecycle, shutdown, the one-engine-per-data-dir lock, and concurrency: mutations of a
// session apply in order, rollbacks run one at a time and are refused while a turn is active.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import {
  expectCode,
  makeSandbox,
  orNone,
  plant,
  runTurn,
  SESSION,
  statusOf,
  testClock,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
const s = who();
const input = (engine: Engine, content = 'go') =>
  engine.input({ ...s, platform: 'webui', sessionType: 'chat', content });

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n', b: 'b0\n' });
});

describe('turn lifecycle', () => {
  it('a new input while a turn is active commits the old one first', async () => {
    const engine = await sandbox.open();
    const events: string[] = [];
    engine.on('turn-begun', (e) => events.push(`begun ${e.turnId}`));
    engine.on('turn-committed', (e) => events.push(`committed ${e.turnId}`));
    const first = await input(engine, 'first');
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    const second = await input(engine, 'second');
    await engine.storage.writeFile(ws('b'), 'b1\n', s);
    expect(engine.getManifest(first.turnId as string).turn).toMatchObject({
      status: 'committed',
      fileCount: 1,
      number: 1,
    });
    expect(engine.getManifest(second.turnId as string).turn).toMatchObject({
      status: 'active',
      number: 2,
      endedAt: null,
    });
    expect(engine.listSessions()[0]).toMatchObject({
      sessionId: SESSION,
      activeTurnId: second.turnId,
      platform: 'webui',
      sessionType: 'chat',
    });
    expect(await engine.turnEnd(s)).toEqual({ turnId: second.turnId });
    expect(await engine.turnEnd(s)).toEqual({ turnId: null });
    expect(events).toEqual([
      `begun ${first.turnId}`,
      `committed ${first.turnId}`,
      `begun ${second.turnId}`,
      `committed ${second.turnId}`,
    ]);
    expect(engine.listTurns(SESSION).map((t) => t.number)).toEqual([1, 2]);
  });

  it('listTurns pages by number: before excludes that number and later, limit bounds the page, oldest first', async () => {
    const engine = await sandbox.open();
    for (let i = 0; i < 4; i++) await runTurn(engine, async () => undefined);
    const numbers = (opts?: { limit?: number; before?: number }) =>
      engine.listTurns(SESSION, opts).map((t) => t.number);
    expect(numbers()).toEqual([1, 2, 3, 4]);
    expect(numbers({ before: 4 })).toEqual([1, 2, 3]);
    const page = numbers({ before: 4, limit: 2 });
    expect(page).toHaveLength(2);
    expect(page[1] - page[0]).toBe(1);
    expect(page.every((n) => n < 4)).toBe(true);
  });

  it('sessions are listed newest activity first', async () => {
    const time = testClock();
    const engine = await sandbox.open({ now: time.now } as never);
    for (const sessionId of ['s1', 's2', 's1']) {
      await runTurn(engine, async () => undefined, { sessionId });
      time.pass(1000);
    }
    expect(engine.listSessions().map((x) => x.sessionId)).toEqual(['s1', 's2']);
    expect(engine.listSessions()[0]).toMatchObject({ turnCount: 2, activeTurnId: null });
    expect(engine.storeStats()).toMatchObject({ sessions: 2, turns: 3, dataDir: sandbox.dataDir });
  });

  it('writes without an active turn happen and are not recorded', async () => {
    const engine = await sandbox.open();
    await engine.storage.writeFile(ws('a'), 'unrecorded\n', s);
    expect(await readFile(join(sandbox.workspace, 'a'), 'utf8')).toBe('unrecorded\n');
    expect(orNone(() => engine.listTurns(SESSION))).toEqual([]);
  });

  it('close() commits active turns (not as interrupted); the store reopens with them', async () => {
    let engine = await sandbox.open();
    const start = await sandbox.tree();
    const { turnId } = await input(engine);
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    await engine.close();
    engine = await sandbox.open();
    expect(engine.getManifest(turnId as string).turn).toMatchObject({
      status: 'committed',
      interrupted: false,
      fileCount: 1,
    });
    expect(engine.recovery).toMatchObject({ interruptedTurns: [], interruptedRollbacks: [] });
    expect((await engine.rollback(turnId as string)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('one engine per data dir: a second open is refused until the first closes', async () => {
    const engine = await sandbox.open();
    await expect(sandbox.open()).rejects.toThrow();
    await engine.close();
    const again = await sandbox.open();
    expect(again.listSessions()).toEqual([]);
  });
});

describe('store', () => {
  it('refuses a store whose schema is newer than the engine, and leaves it as it was', async () => {
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await engine.close();
    const dbFile = await findSqliteFile(join(sandbox.dataDir, 'store'));
    const db = new Database(dbFile);
    const current = db.pragma('user_version', { simple: true }) as number;
    expect(current).toBeGreaterThan(0);
    db.pragma(`user_version = ${current + 100}`);
    db.close();
    await expect(sandbox.open()).rejects.toThrow();
    const check = new Database(dbFile, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(current + 100);
    check.close();

    const restore = new Database(dbFile);
    restore.pragma(`user_version = ${current}`);
    restore.close();
    const reopened = await sandbox.open();
    expect(reopened.getManifest(turnId).turn.fileCount).toBe(1);
  });

  it('turns list their first paths as a preview of at most 5, and captured events name each path once', async () => {
    const engine = await sandbox.open();
    const captured: string[] = [];
    engine.on('captured', (e) => captured.push(e.uri));
    const turnId = await runTurn(engine, async () => {
      for (let i = 0; i < 7; i++) await engine.storage.writeFile(ws(`f${i}`), `${i}`, s);
      await engine.storage.writeFile(ws('f0'), 'again', s);
    });
    const turn = engine.getManifest(turnId).turn;
    expect(turn.fileCount).toBe(7);
    expect(turn.preview.length).toBeLessThanOrEqual(5);
    expect(turn.preview.length).toBeGreaterThan(0);
    expect(new Set(captured)).toEqual(new Set(Array.from({ length: 7 }, (_, i) => ws(`f${i}`))));
  });
});

/** The SQLite file of the store: found by its header, wherever the engine names it. */
async function findSqliteFile(dir: string): Promise<string> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const head = (await readFile(path)).subarray(0, 16).toString('latin1');
    if (head === 'SQLite format 3\u0000') return path;
  }
  throw new Error(`no SQLite file under ${dir}`);
}

describe('concurrency', () => {
  it('rollback, rollbackWithChat and rewind are refused with TURN_ACTIVE while the agent turn is active', async () => {
    const engine = await sandbox.open();
    const t1 = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await input(engine);
    await engine.storage.writeFile(ws('b'), 'b1\n', s);
    const during = await sandbox.tree();
    await expectCode(engine.rollback(t1), 'TURN_ACTIVE');
    await expectCode(engine.rollbackWithChat(t1), 'TURN_ACTIVE');
    await expectCode(engine.rewind(SESSION, { toTurnId: t1 }), 'TURN_ACTIVE');
    assertSameTree(during, await sandbox.tree());
    expect(statusOf(engine, t1)).toBe('committed');
    await engine.turnEnd(s);
    expect((await engine.rollback(t1)).ok).toBe(true);
  });

  it('mutations of one session apply in the order they were issued', async () => {
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, () =>
      Promise.all([
        engine.storage.writeFile(ws('a'), 'one\n', s),
        engine.storage.rename(ws('a'), ws('c'), s),
        engine.storage.writeFile(ws('c'), 'three\n', s),
        engine.storage.writeFile(ws('a'), 'four\n', s),
      ]),
    );
    expect(await readFile(join(sandbox.workspace, 'c'), 'utf8')).toBe('three\n');
    expect(await readFile(join(sandbox.workspace, 'a'), 'utf8')).toBe('four\n');
    expect((await engine.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('rollbacks of a session issued together run one at a time and both land', async () => {
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    const t1 = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    const t2 = await runTurn(engine, () => engine.storage.writeFile(ws('b'), 'b1\n', s));
    const [r2, r1] = await Promise.all([engine.rollback(t2), engine.rollback(t1)]);
    expect([r1.ok, r2.ok]).toEqual([true, true]);
    assertSameTree(start, await sandbox.tree());
    expect([statusOf(engine, t1), statusOf(engine, t2)]).toEqual(['rolled-back', 'rolled-back']);
    const kinds = engine.listTurns(SESSION).map((t) => t.kind);
    expect(kinds).toEqual(['agent', 'agent', 'rollback', 'rollback']);
  });

  it('a rollback emits rollback-done, and its turn is listed as a rollback of the turn', async () => {
    const engine = await sandbox.open();
    const t1 = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    const done: unknown[] = [];
    engine.on('rollback-done', (e) => done.push(e));
    const result = await engine.rollback(t1);
    expect(done).toEqual([{ sessionId: SESSION, turnId: t1, rollbackTurnId: result.rollbackTurnId, ok: true }]);
    const rollbackTurn = engine.getManifest(result.rollbackTurnId as string).turn;
    expect(rollbackTurn).toMatchObject({
      kind: 'rollback',
      rollbackOf: [t1],
      status: 'committed',
      number: 2,
      sessionId: SESSION,
    });
    expect(engine.getManifest(t1).turn.rolledBackBy).toBe(result.rollbackTurnId);
  });
});
