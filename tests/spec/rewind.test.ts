// Rewind to turn N across agent turns, rolled-back turns and rollback turns, with chat, and
// its undo (files, messages and statuses back).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  SESSION,
  statusOf,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { type Tree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();
let startTree: Tree;
let afterT1: Tree;
let endTree: Tree;
let t1: string, t2: string, t3: string, r3: string, t4: string;

/** T1 a=a1 · T2 creates b · T3 a=a3 · R3 rolls T3 back · T4 creates c/d; chat in every agent turn. */
beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n' });
  engine = await sandbox.open();
  startTree = await sandbox.tree();
  t1 = await runTurn(
    engine,
    async () => {
      await engine.message({ ...s, role: 'assistant', content: 'did one' });
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
    },
    { content: 'one' },
  );
  afterT1 = await sandbox.tree();
  t2 = await runTurn(
    engine,
    async () => {
      await engine.message({ ...s, role: 'assistant', content: 'did two' });
      await engine.storage.writeFile(ws('b'), 'b2\n', s);
    },
    { content: 'two' },
  );
  await engine.message({ ...s, role: 'assistant', content: 'said between turns' });
  t3 = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a3\n', s), { content: 'three' });
  r3 = (await engine.rollback(t3)).rollbackTurnId as string;
  t4 = await runTurn(engine, () => engine.storage.writeFile(ws('c/d'), 'd4\n', s), { content: 'four' });
  endTree = await sandbox.tree();
});

describe('rewind', () => {
  it('rewinds every turn numbered N or higher, of either kind and any status, with chat; the undo restores all', async () => {
    const messagesBefore = engine.messages(SESSION);
    const statusesBefore = engine.listTurns(SESSION).map((t) => [t.turnId, t.status]);
    expect(statusesBefore.map(([, status]) => status)).toEqual([
      'committed',
      'committed',
      'rolled-back',
      'committed',
      'committed',
    ]);

    const plan = await engine.previewRewind(SESSION, { toTurnId: t2, withChat: true });
    expect(plan.conflicts).toEqual([]);
    const firstOfT2 = messagesBefore.findIndex((m) => m.turnId === t2);
    const doomed = messagesBefore.slice(firstOfT2).map((m) => m.id);
    expect(plan.messages.map((m) => m.id)).toEqual(doomed);
    assertSameTree(endTree, await sandbox.tree(), 'previewRewind writes nothing');

    const deleted: string[][] = [];
    engine.on('memory:messages-deleted', (e) => deleted.push(e.messageIds));
    const result = await engine.rewind(SESSION, { toTurnId: t2, withChat: true });
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.deletedMessages).toBe(doomed.length);
    expect(deleted).toEqual([doomed]);
    assertSameTree(afterT1, await sandbox.tree(), 'the tree at the start of turn 2');
    expect(engine.messages(SESSION)).toEqual(messagesBefore.slice(0, firstOfT2));

    const rewindTurn = engine.getManifest(result.rollbackTurnId as string).turn;
    expect(rewindTurn.kind).toBe('rollback');
    expect([...(rewindTurn.rollbackOf ?? [])].sort()).toEqual([t2, t3, r3, t4].sort());
    for (const id of [t2, t3, r3, t4]) expect(statusOf(engine, id)).toBe('rolled-back');
    expect(statusOf(engine, t1)).toBe('committed');

    const restored: string[][] = [];
    engine.on('memory:messages-restored', (e) => restored.push(e.messageIds));
    const undo = await engine.rollback(result.rollbackTurnId as string);
    expect(undo.ok).toBe(true);
    assertSameTree(endTree, await sandbox.tree(), 'the undo brings the turn-end tree back');
    expect(engine.messages(SESSION)).toEqual(messagesBefore);
    expect(restored).toEqual([doomed]);
    const statusesAfter = engine.listTurns(SESSION).filter((t) => statusesBefore.some(([id]) => id === t.turnId));
    expect(statusesAfter.map((t) => [t.turnId, t.status])).toEqual(statusesBefore);
  });

  it("rewinding to a rolled-back turn goes back to that turn's start", async () => {
    const result = await engine.rewind(SESSION, { toTurnId: t3 });
    expect(result.ok).toBe(true);
    const expected = new Map(endTree);
    expected.delete('c');
    expected.delete('c/d');
    assertSameTree(expected, await sandbox.tree());
    expect(result.deletedMessages ?? 0).toBe(0);
    expect(engine.messages(SESSION).map((m) => m.content)).toContain('four');
  });

  it('drift against the latest turn that touched a path is a CONFLICT that changes nothing', async () => {
    await writeFile(join(sandbox.workspace, 'b'), 'edited by a person\n');
    const drifted = await sandbox.tree();
    const error = await expectCode(engine.rewind(SESSION, { toTurnId: t1 }), 'CONFLICT');
    expect(error.details?.conflicts).toEqual([ws('b')]);
    assertSameTree(drifted, await sandbox.tree());
    expect(statusOf(engine, t2)).toBe('committed');
  });

  it('a rewind to the first turn restores the very first tree', async () => {
    const result = await engine.rewind(SESSION, { toTurnId: t1 });
    expect(result.ok).toBe(true);
    assertSameTree(startTree, await sandbox.tree());
    for (const id of [t1, t2, t3, r3, t4]) expect(statusOf(engine, id)).toBe('rolled-back');
  });
});
