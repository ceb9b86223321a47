// A rollback that does nothing commits nothing: refused before it changed anything (a race met
// by its capture), or forced and failing on every path, it leaves no rollback turn behind (no
// empty "undo" in the timeline), and a forced one says so (`changedNothing`).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from '../../server/engine/index.js';
import { LinkOnPathError } from '../../server/engine/errors.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  SESSION,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';

let sandbox: Sandbox;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { 'a.txt': 'a0\n' });
});

/** An engine whose seam fails `op` once `arm()` is called, from the `nth` time on (reads of `counted` counted). */
async function openFaulty(fail: (op: string, target: string, count: number) => Error | null, counted = 'a.txt') {
  let armed = false;
  let count = 0;
  const fs = new EngineFs({
    beforeOp: (op, target) => {
      if (!armed) return;
      const e = fail(op, target, op === 'readFile' && target === join(sandbox.workspace, counted) ? ++count : count);
      if (e) throw e;
    },
  });
  const engine = await sandbox.open({ fs });
  return {
    engine,
    arm: () => {
      armed = true;
    },
  };
}

const kinds = (engine: Awaited<ReturnType<typeof openFaulty>>['engine']) =>
  engine.listTurns(SESSION).map((t) => t.kind);

describe('a rollback that changes nothing leaves no turn', () => {
  it('refused with BAD_URI before anything changed (its capture met a race): no rollback turn', async () => {
    // The rollback removes the file the turn made. The plan's read of it is the first; the
    // rollback turn's capture of it (made a moment ago, so read again: a file written over in
    // place would be checked through its open handle instead), the second, meets the race.
    const { engine, arm } = await openFaulty(
      (op, _target, count) => (op === 'readFile' && count === 2 ? new LinkOnPathError() : null),
      'new.txt',
    );
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('new.txt'), 'n1\n', s));
    arm();
    await expectCode(engine.rollback(turnId), 'BAD_URI');
    expect(await readFile(join(sandbox.workspace, 'new.txt'), 'utf8')).toBe('n1\n');
    expect(kinds(engine)).toEqual(['agent']);
    expect(engine.listTurns(SESSION)[0].status).toBe('committed');
  });

  it('forced, every path failing: ok false, changedNothing, no rollback turn', async () => {
    // Every placement fails: a rename over the file, or its open to be written over in place.
    const { engine, arm } = await openFaulty((op, target) =>
      op === 'rename' || (op === 'open' && target === join(sandbox.workspace, 'a.txt'))
        ? Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })
        : null,
    );
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'a1\n', s));
    await writeFile(join(sandbox.workspace, 'a.txt'), 'the person changed it\n');
    await expectCode(engine.rollback(turnId), 'CONFLICT');
    expect(kinds(engine)).toEqual(['agent']);
    arm();
    const result = await engine.rollback(turnId, { force: true });
    expect(result).toMatchObject({ ok: false, rollbackTurnId: null, changedNothing: true, restored: [] });
    expect(result.errors.map((e) => e.code)).toEqual(['IO']);
    expect(await readFile(join(sandbox.workspace, 'a.txt'), 'utf8')).toBe('the person changed it\n');
    expect(kinds(engine)).toEqual(['agent']);
    expect(engine.listTurns(SESSION)[0].status).toBe('committed');
  });

  it('a rollback that does change something still commits its turn (and says nothing of changedNothing)', async () => {
    const { engine } = await openFaulty(() => null);
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'a1\n', s));
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(true);
    expect(result.changedNothing).toBeUndefined();
    expect(kinds(engine)).toEqual(['agent', 'rollback']);
    // Already rolled back: nothing to do, no second turn.
    const again = await engine.rollback(turnId);
    expect(again).toMatchObject({ ok: true, rollbackTurnId: null, changedNothing: true });
    expect(kinds(engine)).toEqual(['agent', 'rollback']);
  });
});
