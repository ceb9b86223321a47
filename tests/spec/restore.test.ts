// Selective restore, drift conflicts and `force`, and the undo of each.
import { readdir, readFile, writeFile } from 'node:fs/promises';
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

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n', b: 'b0\n', c: 'c0\n' });
  engine = await sandbox.open();
});

const read = (rel: string) => readFile(join(sandbox.workspace, rel), 'utf8');

/** `base` with the nodes of `paths` taken from `from` (absent there → absent). */
function mix(base: Tree, from: Tree, paths: string[]): Tree {
  const result = new Map(base);
  for (const path of paths) {
    const node = from.get(path);
    if (node) result.set(path, node);
    else result.delete(path);
  }
  return result;
}

describe('selective restore', () => {
  it('restores only the chosen paths; the turn is partially rolled back until every path is', async () => {
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile(ws('b'), 'b1\n', s);
      await engine.storage.rename(ws('c'), ws('c2'), s);
    });
    const end = await sandbox.tree();

    const plan = await engine.preview(turnId, { uris: [ws('a')] });
    expect(plan.actions.map((a) => [a.uri, a.action])).toEqual([[ws('a'), 'restore']]);
    expect(plan.conflicts).toEqual([]);
    assertSameTree(end, await sandbox.tree(), 'preview writes nothing');

    const first = await engine.rollback(turnId, { uris: [ws('a')] });
    expect(first).toMatchObject({ ok: true, restored: [ws('a')], deleted: [], errors: [] });
    assertSameTree(mix(end, start, ['a']), await sandbox.tree());
    expect(statusOf(engine, turnId)).toBe('partially-rolled-back');

    const second = await engine.rollback(turnId, { uris: [ws('c2')] });
    expect(second.ok).toBe(true);
    assertSameTree(mix(end, start, ['a', 'c', 'c2']), await sandbox.tree());
    expect(statusOf(engine, turnId)).toBe('partially-rolled-back');

    await engine.rollback(turnId, { uris: [ws('b')] });
    assertSameTree(start, await sandbox.tree());
    expect(statusOf(engine, turnId)).toBe('rolled-back');
  });

  it('a selected path brings back the entries chained to it, and the directories they made', async () => {
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.move(ws('a'), ws('n/x'), s);
      await engine.storage.writeFile(ws('b'), 'b1\n', s);
    });
    const end = await sandbox.tree();
    const result = await engine.rollback(turnId, { uris: [ws('n/x')] });
    expect(result.ok).toBe(true);
    assertSameTree(mix(start, end, ['b']), await sandbox.tree());
    expect(statusOf(engine, turnId)).toBe('partially-rolled-back');
  });

  it('undoing a selective rollback brings the file and the status back', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile(ws('b'), 'b1\n', s);
    });
    const end = await sandbox.tree();
    const partial = await engine.rollback(turnId, { uris: [ws('b')] });
    expect(await read('b')).toBe('b0\n');
    const undo = await engine.rollback(partial.rollbackTurnId as string);
    expect(undo.ok).toBe(true);
    assertSameTree(end, await sandbox.tree());
    expect(statusOf(engine, turnId)).toBe('committed');
  });
});

describe('drift and force', () => {
  it('drift is a CONFLICT that changes nothing; force restores, and its undo brings the drifted bytes back', async () => {
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile(ws('b'), 'b1\n', s);
    });
    await writeFile(join(sandbox.workspace, 'a'), 'edited by a person\n');
    const drifted = await sandbox.tree();
    const turnCount = engine.listTurns(SESSION).length;

    const plan = await engine.preview(turnId);
    expect(plan.conflicts).toEqual([ws('a')]);
    expect(plan.actions.find((a) => a.uri === ws('a'))?.conflict).toBe(true);
    expect(plan.actions.find((a) => a.uri === ws('b'))?.conflict).toBe(false);

    const error = await expectCode(engine.rollback(turnId), 'CONFLICT');
    expect(error.details?.conflicts).toEqual([ws('a')]);
    assertSameTree(drifted, await sandbox.tree(), 'a refused rollback touches nothing');
    expect(engine.listTurns(SESSION)).toHaveLength(turnCount);
    expect(statusOf(engine, turnId)).toBe('committed');

    const forced = await engine.rollback(turnId, { force: true });
    expect(forced.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());

    await engine.rollback(forced.rollbackTurnId as string);
    assertSameTree(drifted, await sandbox.tree(), 'the forced rollback captured the drifted file first');
    expect(statusOf(engine, turnId)).toBe('committed');
  });

  it("force on a file the turn created and a person then edited never loses the person's bytes", async () => {
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('made'), 'by the turn\n', s));
    await writeFile(join(sandbox.workspace, 'made'), 'edited by a person\n');
    const drifted = await sandbox.tree();
    await expectCode(engine.rollback(turnId), 'CONFLICT');
    const forced = await engine.rollback(turnId, { force: true });
    const afterForce = await sandbox.tree();
    if (!afterForce.has('made')) {
      // Deleted: then only after capturing it, so undoing the forced rollback brings it back.
      expect(forced.rollbackTurnId).toBeTypeOf('string');
      await engine.rollback(forced.rollbackTurnId as string);
    }
    assertSameTree(drifted, await sandbox.tree());
  });

  it('a path already in its target state is unchanged, never a conflict', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile(ws('b'), 'b1\n', s);
    });
    await writeFile(join(sandbox.workspace, 'b'), 'b0\n');
    const plan = await engine.preview(turnId);
    expect(plan.conflicts).toEqual([]);
    const result = await engine.rollback(turnId);
    expect(result).toMatchObject({ ok: true, restored: [ws('a')], unchanged: [ws('b')] });
  });

  it('force never deletes what the turn did not put there (NOT_EMPTY)', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.mkdir(ws('n'), s);
      await engine.storage.writeFile(ws('n/f'), 'made by the turn\n', s);
    });
    await writeFile(join(sandbox.workspace, 'n/person.txt'), "not the turn's\n");
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('n'), code: 'NOT_EMPTY' })]);
    expect(await readdir(join(sandbox.workspace, 'n'))).toEqual(['person.txt']);
    expect(await read('n/person.txt')).toBe("not the turn's\n");
  });

  it('force never overwrites a file it cannot capture first (too large)', async () => {
    await engine.close();
    engine = await sandbox.open({ maxFileSize: 64 });
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    const big = 'x'.repeat(200);
    await writeFile(join(sandbox.workspace, 'a'), big);
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    expect(result.restored).toEqual([]);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'TOO_LARGE' })]);
    expect(await read('a')).toBe(big);
  });
});
