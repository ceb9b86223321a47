// A conflict answered by keeping both: the file a later change made stays, the version the
// rollback would restore goes beside it (`<name>.turnback-<turn>`), never over a file that
// exists; the undo of that rollback removes the copy and nothing else.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();
const read = (rel: string) => readFile(join(sandbox.workspace, rel), 'utf8');

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { 'a.txt': 'start\n', 'b.txt': 'b start\n', 'c.txt': 'c start\n' });
  engine = await sandbox.open();
});

/** A turn that changes a.txt and b.txt, then the person's edit of a.txt: a.txt now conflicts. */
async function turnThenPersonEdit(): Promise<string> {
  const turnId = await runTurn(engine, async () => {
    await engine.storage.writeFile(ws('a.txt'), 'agent\n', s);
    await engine.storage.writeFile(ws('b.txt'), 'b agent\n', s);
  });
  await writeFile(join(sandbox.workspace, 'a.txt'), 'person\n');
  return turnId;
}

describe('onConflict: keep-both', () => {
  it('leaves the conflicting file, writes the restored version beside it, restores the rest; its undo removes the copy', async () => {
    const turnId = await turnThenPersonEdit();
    await expectCode(engine.rollback(turnId), 'CONFLICT');
    const before = await sandbox.tree();

    const plan = await engine.preview(turnId, { onConflict: 'keep-both' });
    expect(plan.conflicts).toEqual([]);
    expect(plan.actions).toContainEqual(
      expect.objectContaining({ uri: ws('a.txt'), action: 'keep-both', copy: ws('a.txt.turnback-1'), conflict: true }),
    );
    expect(plan.actions).toContainEqual(
      expect.objectContaining({ uri: ws('b.txt'), action: 'restore', conflict: false }),
    );

    const result = await engine.rollback(turnId, { onConflict: 'keep-both' });
    expect(result.keptBoth).toEqual([{ uri: ws('a.txt'), copy: ws('a.txt.turnback-1') }]);
    expect(result.restored.sort()).toEqual([ws('a.txt.turnback-1'), ws('b.txt')]);
    expect(await read('a.txt')).toBe('person\n');
    expect(await read('a.txt.turnback-1')).toBe('start\n');
    expect(await read('b.txt')).toBe('b start\n');
    // a.txt was not driven back: the turn is only partly rolled back.
    expect(engine.getManifest(turnId).turn.status).toBe('partially-rolled-back');

    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    assertSameTree(before, await sandbox.tree());
  });

  it('never writes over a file that exists: the next free name is taken', async () => {
    const turnId = await turnThenPersonEdit();
    await writeFile(join(sandbox.workspace, 'a.txt.turnback-1'), 'mine\n');
    const result = await engine.rollback(turnId, { onConflict: 'keep-both' });
    expect(result.keptBoth).toEqual([{ uri: ws('a.txt'), copy: ws('a.txt.turnback-1-2') }]);
    expect(await read('a.txt.turnback-1')).toBe('mine\n');
    expect(await read('a.txt.turnback-1-2')).toBe('start\n');
  });

  it('a conflicting path that holds nothing now is restored in place: nothing is lost', async () => {
    const turnId = await turnThenPersonEdit();
    await rm(join(sandbox.workspace, 'a.txt'));
    const result = await engine.rollback(turnId, { onConflict: 'keep-both' });
    expect(result.ok).toBe(true);
    expect(result.keptBoth).toEqual([]);
    expect(await read('a.txt')).toBe('start\n');
  });

  it('without keep-both the conflict still refuses, and refuse is the default', async () => {
    const turnId = await turnThenPersonEdit();
    await expectCode(engine.rollback(turnId, { onConflict: 'refuse' }), 'CONFLICT');
    expect(await read('b.txt')).toBe('b agent\n');
  });

  it('a rewind keeps both too, naming the copy by the turn it rewinds to', async () => {
    const first = await runTurn(engine, () => engine.storage.writeFile(ws('c.txt'), 'c one\n', s));
    await runTurn(engine, () => engine.storage.writeFile(ws('c.txt'), 'c two\n', s));
    await writeFile(join(sandbox.workspace, 'c.txt'), 'c person\n');
    const result = await engine.rewind(s.sessionId, { toTurnId: first, onConflict: 'keep-both' });
    expect(result.keptBoth).toEqual([{ uri: ws('c.txt'), copy: ws('c.txt.turnback-1') }]);
    expect(await read('c.txt')).toBe('c person\n');
    expect(await read('c.txt.turnback-1')).toBe('c start\n');
  });
});
