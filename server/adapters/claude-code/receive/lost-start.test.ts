// A Bash call whose PreToolUse never reached turnback (its hook lost, timed out, or sent while no
// service ran) and whose PostToolUse did: the command ran unseen. What changed since the turn's
// own last scan is the turn's, a command of tool `gap` naming it, and the person is told once;
// where no scan of the turn's own tells it from the person's edits, nothing is guessed, and the
// person is told that instead. Through the real hook route and Claude Code's own payloads.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../../protocol.js';
import { treeAsText } from '../../../testkit/tree.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';

let t: HookTestServer;
afterEach(async () => {
  await t.close();
});

const start = (watcher: boolean) =>
  startHookTestServer({ watcher, files: { 'a.txt': 'a\n', 'precious.txt': 'keep me\n' } });
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
/** The person's edit before the prompt: never the turn's. */
const personEdits = () => writeFile(join(t.workspace, 'a.txt'), 'a, as the person left it\n');
/** The command runs; only its PostToolUse reaches turnback. */
async function lostCommand(command: string, run: () => Promise<unknown>) {
  await run();
  return (await t.postHook(p.postToolUse(p.bash(t.context, command)))).json;
}

describe('a PostToolUse whose PreToolUse never came (Claude Code)', () => {
  it('with a watcher, as the turn’s first command: its change is a gap of the turn, told once, undone with it', async () => {
    t = await start(true);
    const c = t.context;
    await personEdits();
    await t.postHook(p.userPromptSubmit(c, 'Tidy up'));
    // The agent thinks: the turn's start scan is done.
    await t.engine.settled();
    const startTree = await treeAsText(t.workspace);
    expect(await lostCommand('rm precious.txt', () => rm(join(t.workspace, 'precious.txt')))).toEqual({
      ok: true,
      outcome: 'forwarded',
      calls: 1,
      systemMessage: expect.stringMatching(/did not hear the start of a command \(Bash: rm precious.txt\).*gap/),
    });
    // Told once per session: the next one is recorded the same, without a word.
    expect(await lostCommand('echo b > b.txt', () => writeFile(join(t.workspace, 'b.txt'), 'b\n'))).toEqual({
      ok: true,
      outcome: 'forwarded',
      calls: 1,
    });
    await t.postHook(p.stop(c));
    const [turn] = await turns();
    expect(turn.execCommands.map((x) => [x.tool, x.changed])).toEqual([
      ['gap', ['workspace:/precious.txt']],
      ['gap', ['workspace:/b.txt']],
    ]);
    expect(turn.execCommands[0].command).toContain('Bash: rm precious.txt');
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).status).toBe(200);
    expect(await treeAsText(t.workspace)).toEqual(startTree);
    expect(await readFile(join(t.workspace, 'precious.txt'), 'utf8')).toBe('keep me\n');
    expect(await readFile(join(t.workspace, 'a.txt'), 'utf8')).toBe('a, as the person left it\n');
  });

  it('without a watcher, as the turn’s first command: not guessed, and the person is told why', async () => {
    t = await start(false);
    const c = t.context;
    await t.postHook(p.userPromptSubmit(c, 'Tidy up'));
    expect(await lostCommand('rm precious.txt', () => rm(join(t.workspace, 'precious.txt')))).toEqual({
      ok: true,
      outcome: 'forwarded',
      calls: 1,
      systemMessage: expect.stringMatching(/\(Bash: rm precious.txt\) and cannot tell its change from yours/),
    });
    await t.postHook(p.stop(c));
    const [turn] = await turns();
    expect(turn.execCommands).toEqual([]);
  });

  it('without a watcher, after a command of the turn ended: its change is a gap of the turn', async () => {
    t = await start(false);
    const c = t.context;
    await t.postHook(p.userPromptSubmit(c, 'Tidy up'));
    const startTree = await treeAsText(t.workspace);
    const first = p.bash(c, 'echo one > one.txt');
    await t.postHook(first);
    await writeFile(join(t.workspace, 'one.txt'), 'one\n');
    await t.postHook(p.postToolUse(first));
    expect(await lostCommand('rm precious.txt', () => rm(join(t.workspace, 'precious.txt')))).toMatchObject({
      outcome: 'forwarded',
      systemMessage: expect.stringMatching(/gap/),
    });
    await t.postHook(p.stop(c));
    const [turn] = await turns();
    expect(turn.execCommands.map((x) => [x.tool, x.changed])).toEqual([
      ['Bash', ['workspace:/one.txt']],
      ['gap', ['workspace:/precious.txt']],
    ]);
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).status).toBe(200);
    expect(await treeAsText(t.workspace)).toEqual(startTree);
  });

  it('with no turn in progress: ignored, as before', async () => {
    t = await start(true);
    expect(await lostCommand('rm precious.txt', () => rm(join(t.workspace, 'precious.txt')))).toMatchObject({
      outcome: 'ignored',
      ignored: expect.stringMatching(/no command/),
    });
  });
});
