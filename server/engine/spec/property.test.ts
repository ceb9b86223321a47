// Property: for random operation sequences over a small tree across 1-3 turns, rolling the
// turns back newest first restores each turn-start tree byte for byte and mode for mode, a
// second rollback changes nothing, and undoing the rollbacks brings back each turn-end tree.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../api.js';
import { makeSandbox, plant, statusOf, type Sandbox } from './harness.testutil.js';
import { applyOp, initialTreeArb, turnsArb, type Op } from './ops-model.testutil.js';
import { assertSameTree, type Tree } from './tree.js';

const NUM_RUNS = process.env.CI ? 200 : Number(process.env.SPEC_PROPERTY_RUNS ?? 50);
// A failure prints its seed and path; SPEC_PROPERTY_SEED / SPEC_PROPERTY_PATH replay it.
const REPLAY = process.env.SPEC_PROPERTY_SEED
  ? { seed: Number(process.env.SPEC_PROPERTY_SEED), path: process.env.SPEC_PROPERTY_PATH, endOnFailure: true }
  : {};

// One engine and data dir serve every run (opening a store costs more than a run); each run
// gets a fresh workspace tree and its own session.
let shared: { sandbox: Sandbox; engine: Engine } | undefined;
let runNumber = 0;

async function freshRun(initial: Parameters<typeof plant>[1]): Promise<{ sandbox: Sandbox; engine: Engine; session: string }> {
  if (!shared) {
    const sandbox = await makeSandbox();
    shared = { sandbox, engine: await sandbox.open() };
  }
  const { sandbox, engine } = shared;
  for (const name of await readdir(sandbox.workspace)) await rm(join(sandbox.workspace, name), { recursive: true, force: true });
  await plant(sandbox.workspace, initial);
  return { sandbox, engine, session: `run-${++runNumber}` };
}

async function checkSequence(initial: Parameters<typeof plant>[1], turns: Op[][]): Promise<void> {
  const { sandbox, engine, session: SESSION } = await freshRun(initial);
  const starts: Tree[] = [];
  const ends: Tree[] = [];
  const turnIds: string[] = [];
  for (const ops of turns) {
    starts.push(await sandbox.tree());
    const { turnId } = await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'turn' });
    for (const op of ops) await applyOp(engine, sandbox.workspace, SESSION, op);
    await engine.turnEnd({ sessionId: SESSION });
    turnIds.push(turnId as string);
    ends.push(await sandbox.tree());
  }

  const rollbackTurnIds: (string | null)[] = [];
  for (let i = turnIds.length - 1; i >= 0; i--) {
    const result = await engine.rollback(turnIds[i]);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    assertSameTree(starts[i], await sandbox.tree(), `after rolling back turn ${i + 1}, its start tree`);
    rollbackTurnIds[i] = result.rollbackTurnId;
    if (result.rollbackTurnId !== null) expect(statusOf(engine, turnIds[i])).toBe('rolled-back');

    const count = engine.listTurns(SESSION).length;
    const again = await engine.rollback(turnIds[i]);
    expect(again).toMatchObject({ ok: true, rollbackTurnId: null, errors: [] });
    expect(engine.listTurns(SESSION)).toHaveLength(count);
    assertSameTree(starts[i], await sandbox.tree(), `after a second rollback of turn ${i + 1}`);
  }

  for (let i = 0; i < turnIds.length; i++) {
    const rollbackTurnId = rollbackTurnIds[i];
    // A turn that changed nothing has nothing to roll back, hence nothing to undo.
    if (rollbackTurnId === null) continue;
    const undo = await engine.rollback(rollbackTurnId);
    expect(undo.errors).toEqual([]);
    expect(undo.ok).toBe(true);
    assertSameTree(ends[i], await sandbox.tree(), `after undoing the rollback of turn ${i + 1}, its end tree`);
    expect(statusOf(engine, turnIds[i])).toBe('committed');
  }
}

describe('property: random operation sequences roll back exactly', () => {
  it(`restores every turn-start and turn-end tree (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(initialTreeArb, turnsArb, (initial, turns) => checkSequence(initial, turns)),
      { numRuns: NUM_RUNS, ...REPLAY },
    );
  }, 300_000);
});
