// Messages belong to the turn active when they are appended; rollbackWithChat deletes exactly
// that turn's messages (with an event) and its undo brings them back: same ids, same order.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import {
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

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n' });
  engine = await sandbox.open();
});

describe('messages', () => {
  it('belong to the active turn (the input that begins it included), else to no turn', async () => {
    const before = await engine.message({ ...s, role: 'system', content: 'before any turn' });
    const input = await engine.input({
      ...s,
      platform: 'webui',
      sessionType: 'chat',
      content: 'Fix the bug\nin detail',
    });
    const reply = await engine.message({ ...s, role: 'assistant', content: 'on it' });
    await engine.turnEnd(s);
    const after = await engine.message({ ...s, role: 'assistant', content: 'one more thing' });

    const messages = engine.messages(SESSION);
    expect(messages.map((m) => [m.id, m.role, m.turnId])).toEqual([
      [before.messageId, 'system', null],
      [input.messageId, 'user', input.turnId],
      [reply.messageId, 'assistant', input.turnId],
      [after.messageId, 'assistant', null],
    ]);
    expect(engine.messages(SESSION, { turnId: input.turnId as string }).map((m) => m.id)).toEqual([
      input.messageId,
      reply.messageId,
    ]);
    const turn = engine.getManifest(input.turnId as string).turn;
    expect(turn.messageCount).toBe(2);
    expect(turn.title).toBe('Fix the bug');
  });

  it('a title is the first line of the user message, at most 120 characters', async () => {
    const { turnId } = await engine.input({
      ...s,
      platform: 'webui',
      sessionType: 'chat',
      content: `${'x'.repeat(300)}\nsecond line`,
    });
    expect(engine.getManifest(turnId as string).turn.title.length).toBeLessThanOrEqual(120);
    expect(engine.getManifest(turnId as string).turn.title.startsWith('x'.repeat(100))).toBe(true);
  });

  it('a title skips blank lines and is cut by code points, never inside a surrogate pair', async () => {
    const first = await engine.input({
      ...s,
      platform: 'webui',
      sessionType: 'chat',
      content: '\n  \n  Fix the bug  \nmore',
    });
    expect(engine.getManifest(first.turnId as string).turn.title).toBe('Fix the bug');
    const emoji = `${'a'.repeat(119)}😀😀tail`;
    const second = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: emoji });
    const title = engine.getManifest(second.turnId as string).turn.title;
    expect(Array.from(title)).toHaveLength(120);
    expect(title).toBe(`${'a'.repeat(119)}😀`);
    expect(title).not.toContain('\uFFFD');
  });
});

describe('rollbackWithChat', () => {
  it("deletes exactly that turn's messages, and its undo restores them (same ids, same order) and the files", async () => {
    await runTurn(
      engine,
      async () => {
        await engine.message({ ...s, role: 'assistant', content: 'reply one' });
        await engine.storage.writeFile(ws('a'), 'a1\n', s);
      },
      { content: 'one' },
    );
    const afterOne = await sandbox.tree();
    const t2 = await runTurn(
      engine,
      async () => {
        await engine.message({ ...s, role: 'tool', content: 'tool output' });
        await engine.message({ ...s, role: 'assistant', content: 'reply two' });
        await engine.storage.writeFile(ws('b'), 'b2\n', s);
      },
      { content: 'two' },
    );
    await engine.message({ ...s, role: 'assistant', content: 'after two, no turn' });
    const end = await sandbox.tree();
    const all = engine.messages(SESSION);
    const ofT2 = all.filter((m) => m.turnId === t2).map((m) => m.id);
    expect(ofT2).toHaveLength(3);

    const deleted: unknown[] = [];
    const restored: unknown[] = [];
    engine.on('memory:messages-deleted', (e) => deleted.push(e));
    engine.on('memory:messages-restored', (e) => restored.push(e));

    const plan = await engine.preview(t2, { withChat: true });
    expect(plan.messages.map((m) => m.id)).toEqual(ofT2);

    const result = await engine.rollbackWithChat(t2);
    expect(result).toMatchObject({ ok: true, deletedMessages: 3, errors: [] });
    expect(deleted).toEqual([{ sessionId: SESSION, messageIds: ofT2 }]);
    expect(engine.messages(SESSION)).toEqual(all.filter((m) => m.turnId !== t2));
    assertSameTree(afterOne, await sandbox.tree());
    expect(statusOf(engine, t2)).toBe('rolled-back');

    const undo = await engine.rollback(result.rollbackTurnId as string);
    expect(undo.ok).toBe(true);
    expect(engine.messages(SESSION)).toEqual(all);
    expect(restored).toEqual([{ sessionId: SESSION, messageIds: ofT2 }]);
    assertSameTree(end, await sandbox.tree());
    expect(statusOf(engine, t2)).toBe('committed');
  });

  it('a plain rollback keeps the messages', async () => {
    const t1 = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    const before = engine.messages(SESSION);
    await engine.rollback(t1);
    expect(engine.messages(SESSION)).toEqual(before);
  });
});
