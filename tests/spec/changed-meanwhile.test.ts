// A person's edit made while a rollback runs is never lost: after planning looked at a path and
// before its restored content is placed (written over the file in place, or renamed over it), a
// change there is either captured by the rollback turn or the path is left as it is (CHANGED),
// and the rest of the rollback goes on. An untouched file is recorded from what planning read,
// not read a second time.
import nodeFs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EngineFs, type FsOpName } from '../../server/engine/index.js';
import { makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';

let sandbox: Sandbox;
let real: string;
const s = who();
const PERSON = 'the person typed this meanwhile, longer than before\n';

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n', b: 'b0\n' });
  real = nodeFs.realpathSync(sandbox.workspace);
});

/** An engine whose filesystem seam calls `hook` before each operation; a turn that changed a and b. */
async function engineWithTurn(hook: { on?: (op: FsOpName, target: string) => void }) {
  const fs = new EngineFs({ beforeOp: (op, target) => hook.on?.(op, target) });
  const engine = await sandbox.open({ fs });
  const turnId = await runTurn(engine, async () => {
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    await engine.storage.writeFile(ws('b'), 'b1\n', s);
  });
  // Old enough that planning's lstat can be trusted later (state/seen.ts): the path without a second read.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return { engine, turnId };
}

async function personsEditSurvives(
  engine: Awaited<ReturnType<typeof engineWithTurn>>['engine'],
  rollbackTurnId: string,
) {
  if ((await readFile(join(real, 'a'), 'utf8')) === PERSON) return;
  // Not on disk: then the rollback turn captured it, and undoing that turn brings it back.
  await engine.rollback(rollbackTurnId, { force: true });
  expect(await readFile(join(real, 'a'), 'utf8')).toBe(PERSON);
}

/** The rollback leaves a as the person's edit left it (CHANGED), restores b, leaves no temp file behind. */
async function editLeftAsItIs(
  engine: Awaited<ReturnType<typeof engineWithTurn>>['engine'],
  turnId: string,
  hook: { on?: (op: FsOpName, target: string) => void },
  edited: () => boolean,
) {
  const result = await engine.rollback(turnId);
  hook.on = undefined;
  expect(edited()).toBe(true);
  expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'CHANGED' })]);
  expect(await readFile(join(real, 'a'), 'utf8')).toBe(PERSON);
  expect(await readFile(join(real, 'b'), 'utf8')).toBe('b0\n');
  expect((await readdir(real)).sort()).toEqual(['a', 'b']);
  await personsEditSurvives(engine, result.rollbackTurnId!);
}

describe('a file changed while its rollback runs', () => {
  it('after planning read it, before the rollback turn records it: left as it is (CHANGED), never lost', async () => {
    const hook: { on?: (op: FsOpName, target: string) => void } = {};
    const { engine, turnId } = await engineWithTurn(hook);
    let planned = false;
    let edited = false;
    hook.on = (op, target) => {
      if (target !== join(real, 'a')) return;
      if (op === 'readFile') planned = true;
      else if (op === 'lstat' && planned && !edited) {
        edited = true;
        nodeFs.writeFileSync(target, PERSON);
      }
    };
    const result = await engine.rollback(turnId);
    hook.on = undefined;
    expect(edited).toBe(true);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'CHANGED' })]);
    expect(result.restored).toEqual([ws('b')]);
    expect(await readFile(join(real, 'b'), 'utf8')).toBe('b0\n');
    await personsEditSurvives(engine, result.rollbackTurnId!);
  });

  it('right before its restored content is written over it in place: left as it is (CHANGED)', async () => {
    const hook: { on?: (op: FsOpName, target: string) => void } = {};
    const { engine, turnId } = await engineWithTurn(hook);
    let edited = false;
    // The in-place write opens the file itself (paths/overwrite.ts); the edit lands just before.
    hook.on = (op, target) => {
      if (op !== 'open' || target !== join(real, 'a') || edited) return;
      edited = true;
      nodeFs.writeFileSync(join(real, 'a'), PERSON);
    };
    await editLeftAsItIs(engine, turnId, hook, () => edited);
  });

  it('right before its restored content is renamed over it: left as it is (CHANGED), no temp file left', async () => {
    const hook: { on?: (op: FsOpName, target: string) => void } = {};
    const { engine, turnId } = await engineWithTurn(hook);
    // A second link elsewhere: a is not written in place (that would change it there too), but replaced by rename.
    nodeFs.linkSync(join(real, 'a'), join(sandbox.base, 'a-elsewhere'));
    let edited = false;
    hook.on = (op, target) => {
      if (op !== 'rename' || dirname(target) !== real || !basename(target).startsWith('.turnback-tmp-') || edited)
        return;
      edited = true;
      nodeFs.writeFileSync(join(real, 'a'), PERSON);
    };
    await editLeftAsItIs(engine, turnId, hook, () => edited);
  });

  it('written a moment ago, it is not read again to be recorded: checked through the open file before it is written over', async () => {
    const fs = new EngineFs({ beforeOp: (op, target) => hook.on?.(op, target) });
    const hook: { on?: (op: FsOpName, target: string) => void } = {};
    const engine = await sandbox.open({ fs });
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    const ops: string[] = [];
    hook.on = (op, target) => {
      if (target === join(real, 'a') && (op === 'readFile' || op === 'read' || op === 'write')) ops.push(op);
    };
    const result = await engine.rollback(turnId);
    hook.on = undefined;
    expect(result.ok).toBe(true);
    // Planning's read, then the check through the open file right before the write.
    expect(ops).toEqual(['readFile', 'read', 'write']);
    expect(await readFile(join(real, 'a'), 'utf8')).toBe('a0\n');
    expect((await engine.rollback(result.rollbackTurnId!)).ok).toBe(true);
    expect(await readFile(join(real, 'a'), 'utf8')).toBe('a1\n');
  });

  it('untouched, it is recorded from what planning read: each file is read once, and the rollback is exact', async () => {
    const hook: { on?: (op: FsOpName, target: string) => void } = {};
    const { engine, turnId } = await engineWithTurn(hook);
    const reads = new Map<string, number>();
    hook.on = (op, target) => {
      if (op === 'readFile') reads.set(target, (reads.get(target) ?? 0) + 1);
    };
    const result = await engine.rollback(turnId);
    hook.on = undefined;
    expect(result.ok).toBe(true);
    expect(reads.get(join(real, 'a'))).toBe(1);
    expect(reads.get(join(real, 'b'))).toBe(1);
    expect(await readFile(join(real, 'a'), 'utf8')).toBe('a0\n');
    // Its own undo still has what the rollback replaced: a1 comes back.
    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    expect(await readFile(join(real, 'a'), 'utf8')).toBe('a1\n');
  });
});
