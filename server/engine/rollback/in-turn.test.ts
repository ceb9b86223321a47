// An undo from the agent's own chat (`inTurn`): the earlier turn is driven back inside the
// asking turn, as a step of it, the asking turn's own changes before and after kept in it; undoing
// that step or the asking turn takes the undo back, the earlier turn's status with it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';
import { treeAsText } from '../../testkit/tree.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const S = { sessionId: 's1' };
const input = (content: string) => ({ sessionId: 's1', platform: 'claude-code', sessionType: 'chat', content });
const read = (name: string) => readFile(path.join(box.workspace, name), 'utf8');

describe('an undo asked for inside the active turn of the same session', () => {
  it('undoes the turn before, records it as a step of the asking turn, and can be undone again', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'a0\n');
    await writeFile(path.join(box.workspace, 'b.txt'), 'b0\n');
    const engine = await openEngineOn(box);
    const { turnId: first } = await engine.input(input('edit a'));
    await engine.storage.writeFile('workspace:/a.txt', 'a1\n', S);
    await engine.turnEnd(S);
    const afterFirst = await treeAsText(box.workspace);
    const { turnId: asking } = await engine.input(input('undo your last turn'));
    await engine.storage.writeFile('workspace:/b.txt', 'b1\n', S);

    // Without naming the asking turn, the session's active turn still refuses.
    await expect(engine.rollback(first!)).rejects.toMatchObject({ code: 'TURN_ACTIVE' });
    await expect(engine.rollback(asking!, { inTurn: asking! })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await engine.preview(first!)).actions).toMatchObject([{ uri: 'workspace:/a.txt', action: 'restore' }]);

    const result = await engine.rollback(first!, { inTurn: asking!, step: { id: 'toolu_1', title: 'undo_turn' } });
    expect(result).toMatchObject({ ok: true, rollbackTurnId: asking, restored: ['workspace:/a.txt'] });
    expect(await read('a.txt')).toBe('a0\n');
    await engine.storage.writeFile('workspace:/b.txt', 'b2\n', S);
    await engine.turnEnd(S);

    const turns = engine.listTurns('s1');
    expect(turns.map((t) => [t.number, t.kind, t.status, t.fileCount])).toEqual([
      [1, 'agent', 'rolled-back', 1],
      [2, 'agent', 'committed', 2],
    ]);
    expect(turns[0].rolledBackBy).toBe(asking);
    expect(engine.steps(asking!).map((s) => s.title)).toContain('undo_turn');

    // Undoing the asking turn takes its own changes and the undo back: the first turn counts again.
    expect(await engine.rollback(asking!)).toMatchObject({ ok: true });
    expect(await treeAsText(box.workspace)).toEqual(afterFirst);
    expect(engine.listTurns('s1').find((t) => t.turnId === first)).toMatchObject({ status: 'committed' });
    await engine.close();
  });
});
