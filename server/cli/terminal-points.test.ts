// Finer and longer-lived undo points from the terminal, against the service as a real process:
// show's steps and undo --step (the rest of the turn unchanged, a later step's conflict named),
// --keep-both, pin / pins / unpin and rewind to a pin, diff a..b between two points.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTerminal } from './test/run-terminal.js';
import { useTerminalFixture } from './test/terminal-fixture.js';

const t = useTerminalFixture('terminal-points');
const { agentTurn, agentCall, run, tree } = t;
const read = (file: string) => readFile(path.join(t.workspace, file), 'utf8');

/** One turn of three tool calls: a.txt, then b.txt, then a.txt again. */
async function threeStepTurn(): Promise<string> {
  const { turnId } = await agentCall('input', {
    sessionId: t.session,
    platform: 'claude-code',
    sessionType: 'chat',
    content: 'Three steps',
  });
  const write = (uri: string, content: string, stepId: string, stepTitle: string) =>
    agentCall('fs/write', { sessionId: t.session, uri: `workspace:/${uri}`, content, stepId, stepTitle });
  await write('a.txt', 'a1\n', 'call-1', 'Edit(a.txt)');
  await write('b.txt', 'b1\n', 'call-2', 'Write(b.txt)');
  await write('a.txt', 'a2\n', 'call-3', 'Edit(a.txt) again');
  await agentCall('turn-end', { sessionId: t.session });
  return turnId as string;
}

describe('steps: turnback show and undo --step', () => {
  it('lists the steps, undoes one exactly leaving the rest, names a later step as a conflict, and the step undo is undoable', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a0\n');
    await writeFile(path.join(t.workspace, 'b.txt'), 'b0\n');
    await threeStepTurn();
    const after = await tree();

    const shown = await run('show', ['1']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/ {2}1 {2}Edit\(a\.txt\) +\(tool\)\n +a\.txt\n/);
    expect(shown.stdout).toMatch(/ {2}2 {2}Write\(b\.txt\) +\(tool\)\n +b\.txt\n/);
    expect(
      JSON.parse((await run('show', ['1', '--json'])).stdout).steps.map((s: { index: number }) => s.index),
    ).toEqual([1, 2, 3]);

    const one = await run('undo', ['1', '--step', '2', '--yes']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('Undo turn #1 "Three steps", step 2:');
    expect(await read('b.txt')).toBe('b0\n');
    expect(await read('a.txt')).toBe('a2\n');

    const refused = await run('undo', ['1', '--step', '1', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /restore +a\.txt +conflict: changed again by step 3 "Edit\(a\.txt\) again" of this turn/,
    );
    expect(await read('a.txt')).toBe('a2\n');
    const forced = await run('undo', ['1', '--step', '1', '--force', '--yes', '--json']);
    expect(forced.code).toBe(0);
    expect(await read('a.txt')).toBe('a0\n');

    // Each step undo is a rollback turn: redo takes back the latest, then the one before.
    expect((await run('redo', ['--yes'])).code).toBe(0);
    expect(await read('a.txt')).toBe('a2\n');
    expect((await run('redo', ['--yes'])).code).toBe(0);
    expect(await tree()).toEqual(after);
  });

  it('refuses a step the turn does not have or a step with --files (exit 2), changing nothing', async () => {
    await threeStepTurn();
    const untouched = await tree();
    expect((await run('undo', ['1', '--step', '9', '--yes'])).code).toBe(2);
    expect((await run('undo', ['1', '--step', 'x', '--yes'])).stderr).toContain("--step takes a step's number");
    expect((await run('undo', ['1', '--step', '1', '--files', 'a.txt', '--yes'])).code).toBe(2);
    expect(await tree()).toEqual(untouched);
  });
});

describe('--keep-both', () => {
  it('undo keeps the changed file and writes the restored version beside it; redo removes the copy', async () => {
    await writeFile(path.join(t.workspace, 'app.ts'), 'one\n');
    await agentTurn('Edit app', { 'app.ts': 'two\n' });
    await writeFile(path.join(t.workspace, 'app.ts'), 'mine\n');
    const mine = await tree();
    const kept = await run('undo', ['--keep-both', '--yes']);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/keep both +app\.ts stays, the restored version goes to app\.ts\.turnback-1/);
    expect(kept.stdout).toMatch(/kept both +app\.ts \(as it was\) and app\.ts\.turnback-1 \(restored\)/);
    expect(await read('app.ts')).toBe('mine\n');
    expect(await read('app.ts.turnback-1')).toBe('one\n');
    expect((await run('redo', ['--yes'])).code).toBe(0);
    expect(await tree()).toEqual(mine);
  });

  it('restore --keep-both and rewind --keep-both answer with keptBoth', async () => {
    await writeFile(path.join(t.workspace, 'x.txt'), 'x0\n');
    await agentTurn('Edit x', { 'x.txt': 'x1\n' });
    await writeFile(path.join(t.workspace, 'x.txt'), 'mine\n');
    const restored = JSON.parse(
      (await run('restore', ['x.txt', '--from', '1', '--keep-both', '--yes', '--json'])).stdout,
    );
    expect(restored.result.keptBoth).toEqual([{ uri: 'workspace:/x.txt', copy: 'workspace:/x.txt.turnback-1' }]);
    expect((await run('redo', ['--yes'])).stdout).toMatch(/removed +x\.txt\.turnback-1\n/);
    const rewound = await run('rewind', ['1', '--keep-both', '--yes', '--json']);
    expect(rewound.code).toBe(0);
    const [kept] = JSON.parse(rewound.stdout).result.keptBoth;
    expect(kept.uri).toBe('workspace:/x.txt');
    expect(await read('x.txt')).toBe('mine\n');
    expect(await read(kept.copy.replace('workspace:/', ''))).toBe('x0\n');
  });
});

describe('pins', () => {
  it('pins, lists, rewinds to a pin by name and by pin:<n>, and unpins; undo still addresses the agent session', async () => {
    await writeFile(path.join(t.workspace, 'p.txt'), 'p0\n');
    await agentTurn('Before the pin', { 'p.txt': 'p1\n' });
    const atPin = await tree();
    const pinned = await run('pin', ['known good']);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout).toMatch(/^pinned pin:1 "known good" \(t_\S+\); turnback rewind pin:1 goes back to it\n$/);
    await agentTurn('After the pin', { 'p.txt': 'p2\n', 'q.txt': 'q\n' });
    const later = await tree();
    await agentTurn('Other session', { 'r.txt': 'r\n' }, `${t.session}-other`);

    expect((await run('pins', [])).stdout).toMatch(/^pin:1 +t_\S+ +\S+ \S+ +known good\n$/);
    // `log` keeps to the agents' sessions (the pin's #1 would repeat theirs); --session shows the pins'.
    expect((await run('log', [])).stdout).not.toContain('known good');
    expect((await run('log', ['--session', 'turnback-pins'])).stdout).toMatch(/#1 +\S+ .*known good .*\[pin\]/);
    const rewound = await run('rewind', ['known good', '--yes']);
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain('Rewind to pin "known good" (pin:1)');
    expect(await tree()).toEqual(atPin);

    // The rewind is one rollback turn of the pins' session, undone like any other.
    const rewindTurn = JSON.parse((await run('show', ['last', '--session', 'turnback-pins', '--json'])).stdout).turn
      .turnId;
    expect((await run('undo', [rewindTurn, '--yes'])).code).toBe(0);
    expect(await read('p.txt')).toBe('p2\n');
    expect((await run('rewind', ['pin:1', '--yes', '--json'])).code).toBe(0);
    expect(await tree()).toEqual(atPin);
    expect(later).not.toEqual(atPin);

    // A pin is the person's: `undo` without a turn keeps to the agent's latest session.
    // (the rewind to the pin undid the other session's turn too: nothing is left to undo there).
    expect(JSON.parse((await run('undo', ['--json'])).stdout).error.message).toContain(`session ${t.session}-other:`);

    expect((await run('unpin', ['pin:1'])).code).toBe(0);
    expect(JSON.parse((await run('pins', ['--json'])).stdout).pins).toEqual([]);
    expect((await run('log', ['--session', 'turnback-pins'])).stdout).toMatch(/known good .*\[unpinned\]/);
    const missing = await run('rewind', ['pin:1', '--yes', '--json']);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe('PIN_NOT_FOUND');
  });

  it('pin, pins and unpin are commands of the installed bin', async () => {
    await agentTurn('Something', { 'z.txt': 'z\n' });
    const pinned = await spawnTerminal(['pin', 'from the bin', '--json'], { cwd: t.workspace, env: t.env });
    expect(pinned.code).toBe(0);
    const { pin } = JSON.parse(pinned.stdout);
    const listed = await spawnTerminal(['pins', '--json'], { cwd: t.workspace, env: t.env });
    expect(JSON.parse(listed.stdout).pins.map((p: { turnId: string }) => p.turnId)).toContain(pin.turnId);
    expect((await spawnTerminal(['unpin', pin.turnId.slice(0, 14)], { cwd: t.workspace, env: t.env })).code).toBe(0);
    expect((await spawnTerminal(['unpin', 'nothing-like-it'], { cwd: t.workspace, env: t.env })).code).toBe(2);
  });

  it('refuses to pin while an agent turn is recorded (exit 1)', async () => {
    await agentCall('input', {
      sessionId: t.session,
      platform: 'claude-code',
      sessionType: 'chat',
      content: 'Working',
    });
    const refused = await run('pin', ['mid-turn', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('TURN_ACTIVE');
    await agentCall('turn-end', { sessionId: t.session });
  });
});

describe('turnback diff <a>..<b>', () => {
  it('diffs the tree at the end of one point against another, turns or pins', async () => {
    await writeFile(path.join(t.workspace, 'src/a.ts'), 'a\n');
    await agentTurn('One', { 'src/a.ts': 'A\n' });
    expect((await run('pin', ['one'])).code).toBe(0);
    await agentTurn('Two', { 'src/a.ts': 'AA\n', 'new.txt': 'new\n' });
    await agentTurn('Three', { 'new.txt': null });

    const twoTurns = await run('diff', ['1..2']);
    expect(twoTurns.code).toBe(0);
    expect(twoTurns.stdout).toBe(
      [
        'diff --turnback a/new.txt b/new.txt',
        'new file mode 644',
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1,1 @@',
        '+new',
        'diff --turnback a/src/a.ts b/src/a.ts',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,1 +1,1 @@',
        '-A',
        '+AA',
        '',
      ].join('\n'),
    );
    const fromPin = await run('diff', ['one..3', 'src', '--json']);
    expect(JSON.parse(fromPin.stdout).diffs.map((d: { uri: string }) => d.uri)).toEqual(['workspace:/src/a.ts']);
    const same = await run('diff', ['one..1']);
    expect(same.code).toBe(0);
    expect(same.stderr).toContain('no file differs');
  });
});
