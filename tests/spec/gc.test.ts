// Garbage collection: sessions beyond keepSessions go (least recently active first, never an
// active one), blobs no turn references are swept while referenced ones stay restorable, and
// turn numbers are never reused — also after pruning and clearSession.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { storedContentCount } from '../../server/testkit/contents.js';
import {
  expectCode,
  makeSandbox,
  orNone,
  plant,
  runTurn,
  testClock,
  type Sandbox,
  ws,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { u: 'u0 unique to the first session\n', v: 'v0 unique to the second session\n' });
});

const SHARED = 'content both sessions write\n';
const ids = (engine: Engine) =>
  engine
    .listSessions()
    .map((x) => x.sessionId)
    .sort();

/** s1: u modified, sh created (3 blobs: u0, u1, SHARED) · s2: v modified, sh2 created (v0, v1, SHARED). */
async function twoSessions(engine: Engine): Promise<{ t1: string; t2: string }> {
  const t1 = await runTurn(
    engine,
    async () => {
      await engine.storage.writeFile(ws('u'), 'u1 unique to the first session\n', { sessionId: 's1' });
      await engine.storage.writeFile(ws('sh'), SHARED, { sessionId: 's1' });
    },
    { sessionId: 's1' },
  );
  expect(engine.storeStats().blobs).toBe(3);
  const t2 = await runTurn(
    engine,
    async () => {
      await engine.storage.writeFile(ws('v'), 'v1 unique to the second session\n', { sessionId: 's2' });
      await engine.storage.writeFile(ws('sh2'), SHARED, { sessionId: 's2' });
    },
    { sessionId: 's2' },
  );
  return { t1, t2 };
}

/** Contents the store really holds once the background work of the last turn is done. */
async function blobFilesOnDisk(engine: Engine, dataDir: string): Promise<number> {
  await engine.settled();
  return storedContentCount(dataDir);
}

const DAY = 86_400_000;

describe('retention', () => {
  it('keeps everything with keepDays 0 and keepSessions 0, and every blob', async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepDays: 0, keepSessions: 0, now: time.now } as never);
    await twoSessions(engine);
    time.pass(400 * DAY);
    await runTurn(engine, async () => undefined, { sessionId: 's3' });
    expect(ids(engine)).toEqual(['s1', 's2', 's3']);
    expect(engine.storeStats().blobs).toBe(5);
    expect(await blobFilesOnDisk(engine, sandbox.dataDir)).toBe(5);
  });

  it('prunes a session idle longer than keepDays (default 30) after a commit, sweeps its unshared blobs, keeps the shared one restorable', async () => {
    const time = testClock();
    const lines: string[] = [];
    const engine = await sandbox.open({ now: time.now, log: (line: string) => lines.push(line) } as never);
    expect(engine.storeStats().retention).toEqual({ keepDays: 30, keepSessions: 0 });
    const t1 = await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('u'), 'u1 unique to the first session\n', { sessionId: 's1' });
        await engine.storage.writeFile(ws('sh'), SHARED, { sessionId: 's1' });
      },
      { sessionId: 's1' },
    );
    time.pass(29 * DAY);
    const t2 = await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('v'), 'v1 unique to the second session\n', { sessionId: 's2' });
        await engine.storage.writeFile(ws('sh2'), SHARED, { sessionId: 's2' });
      },
      { sessionId: 's2' },
    );
    expect(ids(engine)).toEqual(['s1', 's2']);
    time.pass(2 * DAY);
    await runTurn(engine, async () => undefined, { sessionId: 's2' });
    expect(ids(engine)).toEqual(['s2']);
    expect(engine.storeStats()).toMatchObject({ sessions: 1, blobs: 3, pruned: 1 });
    expect(lines).toEqual([
      expect.stringMatching(/^pruned session s1 \(last active 2026-01-01T.*idle more than 30 days\)$/),
    ]);
    await expectCode(
      Promise.resolve().then(() => engine.getManifest(t1)),
      'TURN_NOT_FOUND',
    );
    expect(await blobFilesOnDisk(engine, sandbox.dataDir)).toBe(3);

    // The workspace itself is never touched by pruning; s2's blobs still restore exactly.
    expect(await readFile(join(sandbox.workspace, 'u'), 'utf8')).toBe('u1 unique to the first session\n');
    const result = await engine.rollback(t2);
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(await readFile(join(sandbox.workspace, 'v'), 'utf8')).toBe('v0 unique to the second session\n');
    expect((await sandbox.tree()).has('sh2')).toBe(false);
  });

  it('with keepSessions, prunes beyond the n most recently active, least recent first, never one with an active turn', async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 2, now: time.now } as never);
    const turn = async (sessionId: string) => {
      time.pass(2 * DAY);
      return runTurn(engine, () => engine.storage.writeFile(ws(`f-${sessionId}`), sessionId, { sessionId }), {
        sessionId,
      });
    };
    await turn('s1');
    await turn('s2');
    await turn('s1');
    await turn('s3');
    expect(ids(engine)).toEqual(['s1', 's3']);

    // s4's turn stays active while s5 and s6 commit: it must survive every sweep.
    const { turnId: active } = await engine.input({
      sessionId: 's4',
      platform: 'webui',
      sessionType: 'chat',
      content: 'long turn',
    });
    await turn('s5');
    await turn('s6');
    expect(ids(engine)).toContain('s4');
    expect(engine.listSessions().find((x) => x.sessionId === 's4')?.activeTurnId).toBe(active);
    await engine.storage.writeFile(ws('f-s4'), 's4', { sessionId: 's4' });
    expect(await engine.turnEnd({ sessionId: 's4' })).toEqual({ turnId: active });
    expect(engine.getManifest(active as string).turn.fileCount).toBe(1);
  });

  it('an agent opening many throwaway sessions prunes no session active in the last 24 hours', async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 20, now: time.now } as never);
    const kept = await runTurn(engine, () => engine.storage.writeFile(ws('u'), 'u1 kept\n', { sessionId: 'person' }), {
      sessionId: 'person',
    });
    time.pass(23 * 60 * 60 * 1000);
    for (let i = 0; i < 25; i++) await runTurn(engine, async () => undefined, { sessionId: `throwaway-${i}` });
    expect(ids(engine)).toContain('person');
    expect((await engine.rollback(kept)).ok).toBe(true);
    expect(engine.storeStats().pruned).toBe(0);
  });

  it("sessions the agent opens are ranked apart: a person's session idle 25 h outlives three new agent sessions (keepSessions 3)", async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 3, now: time.now } as never);
    const agentTurn = (sessionId: string) =>
      engine
        .input({ sessionId, platform: 'webui', sessionType: 'chat', content: 'go', origin: 'agent' })
        .then(() => engine.turnEnd({ sessionId }));
    await runTurn(engine, () => engine.storage.writeFile(ws('u'), 'u1 kept\n', { sessionId: 'person' }), {
      sessionId: 'person',
    });
    time.pass(25 * 60 * 60 * 1000);
    for (const id of ['a1', 'a2', 'a3']) await agentTurn(id);
    expect(ids(engine)).toEqual(['a1', 'a2', 'a3', 'person']);
    expect(engine.listSessions().map((x) => [x.sessionId, x.origin])).toContainEqual(['person', 'person']);
    // The agent writing into the person's session does not make it the agent's.
    await engine.message({ sessionId: 'person', role: 'assistant', content: 'mine now', origin: 'agent' });
    expect(engine.listSessions().find((x) => x.sessionId === 'person')?.origin).toBe('person');
  });

  it("a session the agent opened becomes the person's once the person rolls back in it", async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 1, now: time.now } as never);
    const agentTurn = async (sessionId: string, write = false) => {
      const { turnId } = await engine.input({
        sessionId,
        platform: 'webui',
        sessionType: 'chat',
        content: 'go',
        origin: 'agent',
      });
      if (write) await engine.storage.writeFile(ws('u'), `by ${sessionId}\n`, { sessionId });
      await engine.turnEnd({ sessionId });
      return turnId as string;
    };
    const undone = await agentTurn('a0', true);
    expect(engine.listSessions()[0].origin).toBe('agent');
    expect((await engine.rollback(undone)).ok).toBe(true);
    expect(engine.listSessions().find((x) => x.sessionId === 'a0')?.origin).toBe('person');
    time.pass(25 * 60 * 60 * 1000);
    await agentTurn('a1');
    time.pass(25 * 60 * 60 * 1000);
    await agentTurn('a2');
    expect(ids(engine)).toEqual(['a0', 'a2']);
  });
});

describe('blob sweep', () => {
  it("never races a capture: blobs kept by an active turn survive sweeps run by other sessions' commits", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`c/f${i}`] = `original content ${i}\n`;
    await plant(sandbox.workspace, files);
    const start = await sandbox.tree();
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 1, now: time.now } as never);
    const { turnId } = await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'long' });
    const otherTurns = (async () => {
      for (let i = 0; i < 4; i++) {
        // Each one old enough to be pruned by the next commit: sweeps run while s1 captures.
        time.pass(2 * DAY);
        await runTurn(engine, () => engine.storage.writeFile(ws(`other-${i}`), `other ${i}`, { sessionId: `o${i}` }), {
          sessionId: `o${i}`,
        });
      }
    })();
    const captures = Promise.all(
      Object.keys(files).map((path) => engine.storage.writeFile(ws(path), 'overwritten\n', { sessionId: 's1' })),
    );
    await Promise.all([otherTurns, captures]);
    await engine.turnEnd({ sessionId: 's1' });
    for (let i = 0; i < 4; i++) await engine.storage.delete(ws(`other-${i}`), { sessionId: 'nobody' });

    const result = await engine.rollback(turnId as string);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });
});

describe('turn numbers', () => {
  it('are 1, 2, 3 per session and never reused after pruning or clearSession', async () => {
    const time = testClock();
    const engine = await sandbox.open({ keepSessions: 1, now: time.now } as never);
    const number = (turnId: string) => engine.getManifest(turnId).turn.number;
    const t = (sessionId: string) => runTurn(engine, async () => undefined, { sessionId });
    expect(number(await t('s1'))).toBe(1);
    expect(number(await t('s1'))).toBe(2);
    time.pass(2 * DAY);
    await t('s2');
    expect(ids(engine)).toEqual(['s2']);
    time.pass(2 * DAY);
    expect(number(await t('s1'))).toBe(3);
    await engine.clearSession('s1');
    expect(number(await t('s1'))).toBe(4);
  });
});

describe('clearSession', () => {
  it("drops the session's turns, messages and unshared blobs, emits session-deleted, touches no file", async () => {
    const engine = await sandbox.open({ keepSessions: 0 });
    const { t1 } = await twoSessions(engine);
    await engine.message({ sessionId: 's1', role: 'assistant', content: 'hello' });
    const events: unknown[] = [];
    engine.on('session-deleted', (e) => events.push(e));
    const before = await sandbox.tree();

    await engine.clearSession('s1');
    expect(events).toEqual([{ sessionId: 's1' }]);
    expect(ids(engine)).toEqual(['s2']);
    expect(orNone(() => engine.messages('s1'))).toEqual([]);
    await expectCode(
      Promise.resolve().then(() => engine.getManifest(t1)),
      'TURN_NOT_FOUND',
    );
    expect(engine.storeStats()).toMatchObject({ sessions: 1, turns: 1, blobs: 3 });
    expect(await blobFilesOnDisk(engine, sandbox.dataDir)).toBe(3);
    assertSameTree(before, await sandbox.tree());
  });
});
