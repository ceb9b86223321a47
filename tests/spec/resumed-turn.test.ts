// A turn a crash cut short goes on when the store opens again: what changed while no service
// ran is the turn's (under a command of tool `gap`: which command made it is unknown), the
// session's next command is recorded in it, and the whole turn rolls back to its start.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { makeSandbox, openEngineOn, type Sandbox } from '../../server/testkit/sandbox.js';
import { treeAsText } from '../../server/testkit/tree.js';
import { abandonEngine } from '../reliability/open-engine.testutil.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox({ 'a.txt': 'a\n', 'precious.txt': 'keep me\n' });
});
afterEach(async () => {
  await box.cleanup();
});

const s = { sessionId: 's1' };
const file = (name: string) => join(box.workspace, name);

/** A command as the hooks report it: the before scan, the change, the after scan. */
async function command(engine: Engine, text: string, change: () => Promise<unknown>): Promise<void> {
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: text });
  await change();
  await engine.execEnd({ ...s, execId: execId! });
}

describe('a turn a crash cut short', () => {
  it('goes on: what changed while no service ran is its (tool gap), and so is the next command', async () => {
    const start = await treeAsText(box.workspace);
    const first = await openEngineOn(box);
    await first.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'tidy up' });
    await command(first, 'echo one > one.txt', () => writeFile(file('one.txt'), 'one\n'));
    await abandonEngine(box, first);

    // While no service runs: a change no hook reported.
    await writeFile(file('a.txt'), 'changed unseen\n');
    const engine = await openEngineOn(box);
    try {
      expect(engine.recovery?.resumedTurns).toHaveLength(1);
      await command(engine, 'rm precious.txt', () => rm(file('precious.txt')));
      const { turnId } = await engine.turnEnd(s);
      const [turn] = engine.listTurns('s1');
      expect(turn.turnId).toBe(turnId);
      expect(turn.execCommands.map((c) => [c.tool, c.changed])).toEqual([
        ['Bash', ['workspace:/one.txt']],
        ['gap', ['workspace:/a.txt']],
        ['Bash', ['workspace:/precious.txt']],
      ]);
      expect((await engine.rollback(turnId!)).ok).toBe(true);
      expect(await treeAsText(box.workspace)).toEqual(start);
      expect(await readFile(file('precious.txt'), 'utf8')).toBe('keep me\n');
    } finally {
      await engine.close();
    }
  });

  it('adds no gap command when nothing changed meanwhile', async () => {
    const first = await openEngineOn(box);
    await first.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'tidy up' });
    await command(first, 'echo one > one.txt', () => writeFile(file('one.txt'), 'one\n'));
    await abandonEngine(box, first);
    const engine = await openEngineOn(box);
    try {
      await engine.turnEnd(s);
      expect(engine.listTurns('s1')[0].execCommands.map((c) => c.tool)).toEqual(['Bash']);
    } finally {
      await engine.close();
    }
  });
});
