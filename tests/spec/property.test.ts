// Property: for random operation sequences over a small tree across 1-3 turns, rolling the
// turns back newest first restores each turn-start tree byte for byte and mode for mode, a
// second rollback changes nothing, undoing the rollbacks brings back each turn-end tree, and
// a rewind to the first turn (and its undo) lands on the first start (and last end) tree.
import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { openEngine } from '../../server/engine/index.js';
import { plant, statusOf } from '../../server/testkit/engine-harness.js';
import { applyOp, initialTreeArb, turnsArb, type Op } from './ops-model.testutil.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { snapshotTree, type Tree } from '../../server/testkit/tree.js';

const NUM_RUNS = process.env.CI ? 200 : Number(process.env.SPEC_PROPERTY_RUNS ?? 50);
// A failure prints its seed and path; SPEC_PROPERTY_SEED / SPEC_PROPERTY_PATH replay it.
const REPLAY = process.env.SPEC_PROPERTY_SEED
  ? { seed: Number(process.env.SPEC_PROPERTY_SEED), path: process.env.SPEC_PROPERTY_PATH, endOnFailure: true }
  : {};
// The runs are split over shards that run concurrently, each with its own engine: the engine
// spends its time waiting on fsync, so shards overlap well. Together they make NUM_RUNS runs.
const SHARDS = process.env.SPEC_PROPERTY_SEED ? 1 : 4;
const RUNS_PER_SHARD = Math.ceil(NUM_RUNS / SHARDS);

/** One engine and data dir serve every run of a shard (opening a store costs more than a run). */
interface Rig {
  workspace: string;
  engine: Engine;
  runs: number;
}

async function openRig(): Promise<Rig & { dispose(): Promise<void> }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'turnback-property-')));
  const workspace = join(base, 'workspace');
  await mkdir(workspace);
  const engine = await openEngine({ workspace, dataDir: join(base, 'data') });
  return {
    workspace,
    engine,
    runs: 0,
    dispose: async () => {
      await engine.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** A fresh workspace tree and a session of its own for the next run. */
async function freshRun(rig: Rig, initial: Parameters<typeof plant>[1]) {
  for (const name of await readdir(rig.workspace))
    await rm(join(rig.workspace, name), { recursive: true, force: true });
  await plant(rig.workspace, initial);
  return {
    engine: rig.engine,
    session: `run-${++rig.runs}`,
    tree: () => snapshotTree(rig.workspace),
    root: rig.workspace,
  };
}

async function checkSequence(rig: Rig, initial: Parameters<typeof plant>[1], turns: Op[][]): Promise<void> {
  const { engine, session: SESSION, tree, root } = await freshRun(rig, initial);
  const starts: Tree[] = [];
  const ends: Tree[] = [];
  const turnIds: string[] = [];
  for (const ops of turns) {
    starts.push(await tree());
    const { turnId } = await engine.input({
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: 'turn',
    });
    for (const op of ops) await applyOp(engine, root, SESSION, op);
    await engine.turnEnd({ sessionId: SESSION });
    turnIds.push(turnId as string);
    ends.push(await tree());
  }

  const rollbackTurnIds: (string | null)[] = [];
  for (let i = turnIds.length - 1; i >= 0; i--) {
    const result = await engine.rollback(turnIds[i]);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    assertSameTree(starts[i], await tree(), `after rolling back turn ${i + 1}, its start tree`);
    rollbackTurnIds[i] = result.rollbackTurnId;
    if (result.rollbackTurnId !== null) expect(statusOf(engine, turnIds[i])).toBe('rolled-back');

    const count = engine.listTurns(SESSION).length;
    const again = await engine.rollback(turnIds[i]);
    expect(again).toMatchObject({ ok: true, rollbackTurnId: null, errors: [] });
    expect(engine.listTurns(SESSION)).toHaveLength(count);
    assertSameTree(starts[i], await tree(), `after a second rollback of turn ${i + 1}`);
  }

  for (let i = 0; i < turnIds.length; i++) {
    const rollbackTurnId = rollbackTurnIds[i];
    // A turn that changed nothing has nothing to roll back, hence nothing to undo.
    if (rollbackTurnId === null) continue;
    const undo = await engine.rollback(rollbackTurnId);
    expect(undo.errors).toEqual([]);
    expect(undo.ok).toBe(true);
    assertSameTree(ends[i], await tree(), `after undoing the rollback of turn ${i + 1}, its end tree`);
    expect(statusOf(engine, turnIds[i])).toBe('committed');
  }

  // Rewinding to the first turn covers every turn since, agent and rollback alike.
  const rewind = await engine.rewind(SESSION, { toTurnId: turnIds[0] });
  expect(rewind.errors).toEqual([]);
  expect(rewind.ok).toBe(true);
  assertSameTree(starts[0], await tree(), 'after rewinding to turn 1, its start tree');
  if (rewind.rollbackTurnId !== null) {
    const undo = await engine.rollback(rewind.rollbackTurnId);
    expect(undo.errors).toEqual([]);
    assertSameTree(ends[ends.length - 1], await tree(), 'after undoing the rewind, the last turn-end tree');
  }
}

describe.concurrent('property: random operation sequences roll back exactly', () => {
  it.each(Array.from({ length: SHARDS }, (_, i) => i + 1))(
    `restores every turn-start and turn-end tree (shard %i of ${SHARDS}, ${RUNS_PER_SHARD} runs)`,
    async () => {
      const rig = await openRig();
      try {
        await fc.assert(
          fc.asyncProperty(initialTreeArb, turnsArb, (initial, turns) => checkSequence(rig, initial, turns)),
          { numRuns: RUNS_PER_SHARD, ...REPLAY },
        );
      } finally {
        await rig.dispose();
      }
    },
    300_000,
  );
});
