// Concurrency: rollbacks racing each other and the agent, two sessions on one file, and one
// engine per data dir.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { openTestEngine } from './open-engine.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { agentEdits, OTHER_SESSION, SESSION, START_FILES } from './scenarios.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';
import { snapshotTree } from '../../server/testkit/tree.js';
import { treeDiff } from '../../server/testkit/tree-diff.js';
import { versionedContent } from './versioned-content.testutil.js';

const tally = newTally();
afterAll(() => writeTally('concurrency', tally));

let sandbox: Sandbox;
let engine: Engine;
afterEach(async () => {
  await engine?.close().catch(() => {});
  await sandbox?.cleanup();
});

async function setup(): Promise<void> {
  sandbox = await makeSandbox(START_FILES);
  engine = await openTestEngine(sandbox, {});
  tally.cases++;
}

async function begin(sessionId: string, title = 'turn'): Promise<string> {
  const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: title });
  return turnId!;
}

const read = (rel: string) => readFile(join(sandbox.workspace, rel), 'utf8');

describe('concurrency', () => {
  it('two rollbacks of one turn at once: both settle, the tree is right, nothing is done twice', async () => {
    await setup();
    const start = await snapshotTree(sandbox.workspace);
    const turnId = await begin(SESSION);
    await agentEdits(engine, SESSION);
    await engine.turnEnd({ sessionId: SESSION });
    const settled = await Promise.allSettled([engine.rollback(turnId), engine.rollback(turnId)]);
    for (const s of settled) {
      if (s.status === 'rejected') expect((s.reason as { code?: string }).code).toEqual(expect.any(String));
    }
    const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(done.length).toBeGreaterThan(0);
    expect(done.filter((r) => r.rollbackTurnId !== null)).toHaveLength(1);
    expect(treeDiff(start, await snapshotTree(sandbox.workspace))).toEqual([]);
    const rollbacks = engine.listTurns(SESSION).filter((t) => t.kind === 'rollback');
    expect(rollbacks).toHaveLength(1);
    expect(engine.listTurns(SESSION).find((t) => t.turnId === turnId)?.status).toBe('rolled-back');
  });

  it("a rollback while another session's agent writes other files keeps both exact", async () => {
    await setup();
    const start = await snapshotTree(sandbox.workspace);
    const turnId = await begin(SESSION);
    await agentEdits(engine, SESSION);
    await engine.turnEnd({ sessionId: SESSION });
    const otherTurn = await begin(OTHER_SESSION);
    const writes = (async () => {
      for (let v = 1; v <= 40; v++)
        await engine.storage.writeFile(`workspace:/agent/w${v % 5}.txt`, versionedContent(`w${v % 5}`, v), {
          sessionId: OTHER_SESSION,
        });
    })();
    const [result] = await Promise.all([engine.rollback(turnId), writes]);
    expect(result.ok).toBe(true);
    await engine.turnEnd({ sessionId: OTHER_SESSION });
    const now = await snapshotTree(sandbox.workspace);
    const diff = treeDiff(start, now).map((d) => d.path);
    expect(diff).toEqual(['agent', ...[0, 1, 2, 3, 4].map((i) => `agent/w${i}.txt`)]);
    for (let i = 0; i < 5; i++)
      expect(await read(`agent/w${i}.txt`)).toBe(versionedContent(`w${i}`, 35 + i + (i === 0 ? 5 : 0)));
    const rollbackUris = engine.getManifest(result.rollbackTurnId!).files.map((f) => f.uri);
    expect(rollbackUris.some((u) => u.startsWith('workspace:/agent'))).toBe(false);
    const otherUris = engine
      .getManifest(otherTurn)
      .files.map((f) => f.uri)
      .sort();
    expect(otherUris).toEqual(['workspace:/agent', ...[0, 1, 2, 3, 4].map((i) => `workspace:/agent/w${i}.txt`)]);
  });

  it('a rollback in a session whose agent turn is active is refused with TURN_ACTIVE, touching nothing', async () => {
    await setup();
    const turnId = await begin(SESSION);
    await engine.storage.writeFile('workspace:/a.txt', 'v2\n', { sessionId: SESSION });
    await engine.turnEnd({ sessionId: SESSION });
    await begin(SESSION, 'still working');
    const before = await snapshotTree(sandbox.workspace);
    await expect(engine.rollback(turnId)).rejects.toMatchObject({ code: 'TURN_ACTIVE' });
    expect(treeDiff(before, await snapshotTree(sandbox.workspace))).toEqual([]);
  });

  it('two sessions on one file: each turn keeps its own before-state; undoing the older one is a conflict', async () => {
    await setup();
    const older = await begin(SESSION);
    await engine.storage.writeFile('workspace:/a.txt', 'one\n', { sessionId: SESSION });
    await engine.turnEnd({ sessionId: SESSION });
    const newer = await begin(OTHER_SESSION);
    await engine.storage.writeFile('workspace:/a.txt', 'two\n', { sessionId: OTHER_SESSION });
    await engine.turnEnd({ sessionId: OTHER_SESSION });
    const hashOf = (turnId: string) =>
      engine.getManifest(turnId).files.find((f) => f.uri === 'workspace:/a.txt')?.before;
    expect(hashOf(older)).not.toEqual(hashOf(newer));
    await expect(engine.rollback(older)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { conflicts: ['workspace:/a.txt'] },
    });
    expect(await read('a.txt')).toBe('two\n');
    expect((await engine.rollback(newer)).ok).toBe(true);
    expect(await read('a.txt')).toBe('one\n');
    expect((await engine.rollback(older)).ok).toBe(true);
    expect(await read('a.txt')).toBe(START_FILES['a.txt']);
  });

  it('a second engine on the same data dir is refused with a clear message', async () => {
    await setup();
    const second = openTestEngine(sandbox, {});
    await expect(second).rejects.toMatchObject({
      code: 'DATA_DIR_LOCKED',
      details: { dataDir: sandbox.dataDir, pid: process.pid },
    });
    expect(engine.listSessions()).toEqual([]);
  });
});
