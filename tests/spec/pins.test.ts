// Named points: a pin marks the workspace as it is, a rewind to it takes every path any session
// changed since back to its state then (and is undoable), and retention keeps the pin and what
// reaching it needs until it is unpinned.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { PINS_SESSION } from '../../server/engine/turns/pins.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  testClock,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;
const DAY = 86_400_000;

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { 'a.txt': 'a0\n', 'src/b.txt': 'b0\n', 'old.txt': 'old\n' });
});

describe('pins', () => {
  it('a rewind to a pin takes back what every session changed since; its undo brings it all back', async () => {
    engine = await sandbox.open();
    await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'a1 before the pin\n', who('s1')), {
      sessionId: 's1',
    });
    const pin = await engine.pin({ name: 'Known good' });
    expect(pin).toMatchObject({ sessionId: PINS_SESSION, name: 'Known good', number: 1 });
    expect(engine.pins().map((p) => p.turnId)).toEqual([pin.turnId]);
    expect(engine.getManifest(pin.turnId).turn).toMatchObject({
      kind: 'pin',
      title: 'Known good',
      pinned: true,
      fileCount: 0,
    });
    const atPin = await sandbox.tree();

    await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('a.txt'), 'a2\n', who('s1'));
        await engine.storage.delete(ws('old.txt'), who('s1'));
      },
      { sessionId: 's1' },
    );
    await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('src/new.txt'), 'new\n', who('s2'));
        await engine.storage.rename(ws('src/b.txt'), ws('src/c.txt'), who('s2'));
      },
      { sessionId: 's2' },
    );
    const end = await sandbox.tree();

    const plan = await engine.previewRewind(PINS_SESSION, { toTurnId: pin.turnId });
    expect(plan.conflicts).toEqual([]);
    const result = await engine.rewind(PINS_SESSION, { toTurnId: pin.turnId });
    expect(result.ok).toBe(true);
    assertSameTree(atPin, await sandbox.tree());
    expect(engine.getManifest(result.rollbackTurnId!).turn.title).toBe('Rewind to pin "Known good"');

    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    assertSameTree(end, await sandbox.tree());
  });

  it('survives retention that prunes its neighbours, with every session since; unpinned, it goes back to retention', async () => {
    const time = testClock();
    engine = await sandbox.open({ now: time.now, keepDays: 30 } as never);
    await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'before\n', who('before')), {
      sessionId: 'before',
    });
    time.pass(DAY);
    const pin = await engine.pin({ name: 'Before the refactor' });
    time.pass(DAY);
    await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'after\n', who('after')), { sessionId: 'after' });
    time.pass(60 * DAY);
    await runTurn(engine, async () => undefined, { sessionId: 'now' });
    const ids = () =>
      engine
        .listSessions()
        .map((s) => s.sessionId)
        .sort();
    // 'before' was idle 62 days and holds nothing the pin needs; 'after' was idle 60 days but came after the pin.
    expect(ids()).toEqual(['after', 'now', PINS_SESSION].sort());
    const result = await engine.rewind(PINS_SESSION, { toTurnId: pin.turnId });
    expect(result.ok).toBe(true);

    await engine.unpin(pin.turnId);
    expect(engine.pins()).toEqual([]);
    time.pass(60 * DAY);
    await runTurn(engine, async () => undefined, { sessionId: 'later' });
    expect(ids()).toEqual(['later']);
  });

  it('is refused while an agent turn is being recorded, and only a pin can be unpinned', async () => {
    engine = await sandbox.open();
    const done = await runTurn(engine, async () => undefined, { sessionId: 's1' });
    await engine.input({ ...who('s1'), platform: 'webui', sessionType: 'chat', content: 'working' });
    await expectCode(engine.pin({ name: 'mid-turn' }), 'TURN_ACTIVE');
    await engine.turnEnd(who('s1'));
    await expectCode(engine.unpin(done), 'BAD_REQUEST');
    await expectCode(engine.pin({ name: '   ' }), 'BAD_REQUEST');
    expect((await engine.pin()).name).toMatch(/^Pinned \d{4}-\d\d-\d\d \d\d:\d\d$/);
  });
});
