// The round trip every recorded turn must survive: roll it back (exact start tree), roll it
// back again (nothing to do, no new turn), then undo the rollback (exact end tree, status back).
import { expect } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import type { RollbackResult } from '../../server/protocol.js';
import { runTurn, SESSION, statusOf, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { type Tree } from '../../server/testkit/tree.js';

export interface RoundTrip {
  turnId: string;
  start: Tree;
  end: Tree;
  rollback: RollbackResult;
  undo: RollbackResult;
}

export async function roundTrip(
  sandbox: Sandbox,
  engine: Engine,
  body: () => Promise<unknown>,
  options: { sessionId?: string; afterTurn?: (turnId: string) => Promise<void> | void } = {},
): Promise<RoundTrip> {
  const sessionId = options.sessionId ?? SESSION;
  const start = await sandbox.tree();
  const turnId = await runTurn(engine, body, { sessionId });
  const end = await sandbox.tree();
  await options.afterTurn?.(turnId);

  const rollback = await engine.rollback(turnId);
  expect(rollback.errors).toEqual([]);
  expect(rollback.ok).toBe(true);
  expect(rollback.turnId).toBe(turnId);
  assertSameTree(start, await sandbox.tree(), 'after rollback, the turn-start tree');
  expect(statusOf(engine, turnId)).toBe('rolled-back');

  const turnsBefore = engine.listTurns(sessionId).length;
  const again = await engine.rollback(turnId);
  expect(again.ok).toBe(true);
  expect(again.rollbackTurnId).toBeNull();
  expect(again.errors).toEqual([]);
  expect(engine.listTurns(sessionId)).toHaveLength(turnsBefore);
  assertSameTree(start, await sandbox.tree(), 'after a second rollback, still the turn-start tree');

  expect(rollback.rollbackTurnId).toBeTypeOf('string');
  const undo = await engine.rollback(rollback.rollbackTurnId as string);
  expect(undo.errors).toEqual([]);
  expect(undo.ok).toBe(true);
  assertSameTree(end, await sandbox.tree(), 'after undoing the rollback, the turn-end tree');
  expect(statusOf(engine, turnId)).toBe('committed');
  return { turnId, start, end, rollback, undo };
}
