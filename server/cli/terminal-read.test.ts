// The terminal's read commands (log, show, diff) against the user's service as a real process,
// plain and --json, with their exit codes; the bin as a process; a cold start and a failed one.
import { mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTerminal, spawnTerminal } from './test/run-terminal.js';
import { useTerminalFixture } from './test/terminal-fixture.js';

const t = useTerminalFixture('terminal-read');
const { agentTurn, agentCall, run } = t;

describe('turnback log', () => {
  it('lists the turns newest first, one line each, and as JSON', async () => {
    await writeFile(path.join(t.workspace, 'src/app.ts'), 'one\n');
    await agentTurn('Add the greeting', { 'src/app.ts': 'one\ntwo\nthree\n' });
    await agentTurn('Remove the notes\nsecond line', { 'notes.md': 'x\n' });
    const plain = await run('log', []);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^#2 +t_\w+ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}Remove the notes {2}1 file {2}\+1 −0$/);
    expect(lines[1]).toMatch(/^#1 .* {2}Add the greeting {2}1 file {2}\+2 −0$/);
    expect(plain.stdout).not.toContain('\x1b[');

    const json = await run('log', ['--json', '-n', '1']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.turns.map((t: { number: number }) => t.number)).toEqual([2]);
    expect(parsed.workspace.root).toBe(t.workspace);
  });

  it("keeps to the agents' sessions: a pin's turn is not listed beside them with a repeated number", async () => {
    await agentTurn('First', { 'a.txt': 'a\n' });
    expect((await run('pin', ['before-two'])).code).toBe(0);
    await agentTurn('Second', { 'a.txt': 'b\n' });
    const lines = (await run('log', [])).stdout.trim().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(['#2', '#1']);
    expect(lines.join('\n')).not.toContain('before-two');
    const pinned = await run('log', ['--session', 'turnback-pins', '--json']);
    expect(JSON.parse(pinned.stdout).turns).toHaveLength(1);
  });

  it('says so when nothing is recorded, and refuses a bad count with exit 2', async () => {
    expect(await run('log', [])).toMatchObject({ code: 0, stdout: `no turns recorded in ${t.workspace} yet\n` });
    const bad = await run('log', ['-n', 'zero']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-n takes a count');
    expect(JSON.parse((await run('log', ['-n', '0', '--json'])).stdout).error.code).toBe('USAGE');
  });

  it('tags each line with its session when the workspace has several, and --session keeps one', async () => {
    await agentTurn('First session turn', { 'a.txt': 'a\n' }, `${t.session}-a`);
    await agentTurn('Second session turn', { 'b.txt': 'b\n' }, `${t.session}-b`);
    const both = (await run('log', [])).stdout.trim().split('\n');
    expect(both[0]).toContain(`${t.session}-b  `);
    expect(both[0]).toContain('Second session turn');
    expect(both[1]).toContain(`${t.session}-a  `);
    expect(both[1]).toContain('First session turn');
    const one = await run('log', ['--session', `${t.session}-a`]);
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    expect(one.stdout).not.toContain(`${t.session}-a  `);
    expect((await run('log', ['--session', 'session-'])).code).toBe(2);

    await agentTurn('Session a again', { 'a.txt': 'a2\n' }, `${t.session}-a`);
    const titles = async (n: string) =>
      JSON.parse((await run('log', ['-n', n, '--json'])).stdout).turns.map((t: { title: string }) => t.title);
    expect(await titles('2')).toEqual(['Session a again', 'Second session turn']);
    expect(await titles('5')).toEqual(['Session a again', 'Second session turn', 'First session turn']);
  });
});

describe('turnback show and diff', () => {
  it('shows a turn’s files and its shell commands, plain and as JSON', async () => {
    await writeFile(path.join(t.workspace, 'notes.md'), 'notes\n');
    const { turnId } = await agentCall('input', {
      sessionId: t.session,
      platform: 'claude-code',
      sessionType: 'chat',
      content: 'Tidy up',
    });
    await agentCall('fs/write', { sessionId: t.session, uri: 'workspace:/src/app.ts', content: 'export {};\n' });
    const { execId } = await agentCall('exec', { sessionId: t.session, tool: 'Bash', command: 'rm notes.md' });
    await rm(path.join(t.workspace, 'notes.md'));
    await agentCall('exec-end', { sessionId: t.session, execId });
    await agentCall('turn-end', { sessionId: t.session });

    const plain = await run('show', ['1'], { cwd: path.join(t.workspace, 'src') });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`turn #1 ${turnId}`);
    expect(plain.stdout).toContain('Tidy up');
    expect(plain.stdout).toMatch(/created +app\.ts {2}\+1 −0/);
    expect(plain.stdout).toMatch(/deleted +\.\.\/notes\.md/);
    expect(plain.stdout).toContain('$ rm notes.md   (Bash)');
    expect(plain.stdout).toContain('changed ../notes.md');

    const json = JSON.parse((await run('show', ['last', '--json'])).stdout);
    expect(json.turn.turnId).toBe(turnId);
    expect(json.files.map((f: { uri: string }) => f.uri).sort()).toEqual([
      'workspace:/notes.md',
      'workspace:/src/app.ts',
    ]);
    expect(json.turn.execCommands[0].command).toBe('rm notes.md');
  });

  it('shows `mv lib pkg` as renames only, counted as the console counts them, in show and in log', async () => {
    await mkdir(path.join(t.workspace, 'lib'));
    await writeFile(path.join(t.workspace, 'lib/a.js'), 'a\n');
    await writeFile(path.join(t.workspace, 'lib/b.js'), 'b\n');
    await agentCall('input', { sessionId: t.session, platform: 'claude-code', sessionType: 'chat', content: 'Move' });
    const { execId } = await agentCall('exec', { sessionId: t.session, tool: 'Bash', command: 'mv lib pkg' });
    await rename(path.join(t.workspace, 'lib'), path.join(t.workspace, 'pkg'));
    await agentCall('exec-end', { sessionId: t.session, execId });
    await agentCall('turn-end', { sessionId: t.session });

    const shown = (await run('show', ['1'])).stdout;
    expect(shown).toContain('  2 files · 1 folder\n');
    expect(shown).toMatch(/renamed +lib -> pkg\n/);
    expect(shown).toMatch(/renamed +lib\/a\.js -> pkg\/a\.js/);
    expect(shown).toMatch(/renamed +lib\/b\.js -> pkg\/b\.js/);
    expect(shown).not.toMatch(/deleted/);
    // The console timeline's count: a moved file is one file.
    expect((await run('log', [])).stdout).toMatch(/ Move {2}2 files /);
  });

  it('prints a unified diff, plain in a pipe and coloured on a terminal, of chosen paths', async () => {
    await writeFile(path.join(t.workspace, 'src/app.ts'), 'a\nb\nc\n');
    await agentTurn('Change b', { 'src/app.ts': 'a\nB\nc\n', 'new.txt': 'fresh\n' });
    const plain = await run('diff', ['1']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(
      [
        'diff --turnback a/src/app.ts b/src/app.ts',
        '--- a/src/app.ts',
        '+++ b/src/app.ts',
        '@@ -1,3 +1,3 @@',
        ' a',
        '-b',
        '+B',
        ' c',
      ].join('\n'),
    );
    expect(plain.stdout).toContain(
      [
        'diff --turnback a/new.txt b/new.txt',
        'new file mode 644',
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1,1 @@',
        '+fresh',
      ].join('\n'),
    );
    expect(plain.stdout).not.toContain('\x1b[');

    const chosen = await run('diff', ['1', 'app.ts'], { cwd: path.join(t.workspace, 'src'), colour: true });
    expect(chosen.stdout).not.toContain('new.txt');
    expect(chosen.stdout).toContain('\x1b[31m-b\x1b[39m');
    expect(chosen.stdout).toContain('\x1b[32m+B\x1b[39m');

    const json = JSON.parse((await run('diff', ['1', 'new.txt', '--json'])).stdout);
    expect(json.diffs).toHaveLength(1);
    expect(json.diffs[0]).toMatchObject({
      uri: 'workspace:/new.txt',
      before: { exists: false },
      after: { text: 'fresh\n' },
    });
    expect(json.diffs[0].patch).toContain('+fresh');
  });

  it("prints a many-file turn's patches whole and in the turn's order, as --json lists them, renames followed", async () => {
    // More files than the diffs asked at once, a large one first: a later answer may come back sooner.
    await writeFile(path.join(t.workspace, 'old-name.txt'), 'moved\n');
    const files: Record<string, string> = { 'a-large.txt': 'line\n'.repeat(20_000) };
    for (let i = 0; i < 30; i++) files[`many/f${String(i).padStart(2, '0')}.txt`] = `file ${i}\n`;
    await agentCall('input', { sessionId: t.session, platform: 'claude-code', sessionType: 'chat', content: 'Many' });
    const { execId } = await agentCall('exec', { sessionId: t.session, tool: 'Bash', command: 'generate' });
    await mkdir(path.join(t.workspace, 'many'));
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(t.workspace, name), content);
    await rename(path.join(t.workspace, 'old-name.txt'), path.join(t.workspace, 'new-name.txt'));
    await agentCall('exec-end', { sessionId: t.session, execId });
    await agentCall('turn-end', { sessionId: t.session });

    const json = JSON.parse((await run('diff', ['1', '--json'])).stdout);
    const manifest = JSON.parse((await run('show', ['1', '--json'])).stdout);
    const inOrder = manifest.files
      .filter((f: { change: string }) => !f.change.startsWith('dir-'))
      .map((f: { uri: string }) => f.uri);
    expect(json.diffs.map((d: { uri: string }) => d.uri)).toEqual(inOrder);
    expect(inOrder.length).toBeGreaterThanOrEqual(32);
    expect(json.diffs.find((d: { uri: string }) => d.uri === 'workspace:/new-name.txt')).toMatchObject({
      from: 'workspace:/old-name.txt',
      before: { text: 'moved\n' },
    });
    const plain = await run('diff', ['1']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(json.diffs.map((d: { patch: string }) => d.patch).join(''));
  });

  it('refuses a turn that does not exist and a path outside the workspace with exit 2', async () => {
    await agentTurn('One', { 'a.txt': 'a\n' });
    expect(await run('diff', ['7'])).toMatchObject({ code: 2, stderr: expect.stringContaining('has no turn 7') });
    expect(await run('diff', ['t_nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no turn t_nope') });
    expect(await run('diff', ['1', '../elsewhere.txt'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not a path inside the workspace'),
    });
    expect(await run('show', [])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing argument') });
  });

  it('refuses the home folder itself as a workspace with exit 2, registering nothing', async () => {
    const ran = await run('log', ['--json'], { cwd: t.env.HOME as string });
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.stdout).error).toMatchObject({
      code: 'WORKSPACE_REFUSED',
      message: expect.stringContaining('home folder'),
    });
    const plain = await run('undo', ['--yes'], { cwd: t.env.HOME as string });
    expect(plain).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^turnback undo: the home folder .* cannot be a workspace/),
    });
  });
});

describe('the bin as a process', () => {
  it('runs log --json, and exits 2 for undo in a pipe without --yes and 1 for a conflict', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
    await agentTurn('Write a', { 'a.txt': 'A\n' });
    const log = await spawnTerminal(['log', '--json'], { cwd: t.workspace, env: t.env });
    expect(log.code).toBe(0);
    expect(JSON.parse(log.stdout).turns).toHaveLength(1);
    expect((await spawnTerminal(['undo'], { cwd: t.workspace, env: t.env })).code).toBe(2);
    await writeFile(path.join(t.workspace, 'a.txt'), 'mine\n');
    const refusedRun = await spawnTerminal(['undo', '--yes'], { cwd: t.workspace, env: t.env });
    expect(refusedRun.code).toBe(1);
    expect(refusedRun.stdout).toContain('conflict: changed since outside any turn');
  });
});

describe('no service running', () => {
  it('a command starts the service (turnback start), then answers', async () => {
    const own = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-terminal-cold-')));
    const ownEnv = { XDG_STATE_HOME: path.join(own, 'state'), HOME: path.join(own, 'home') };
    await mkdir(path.join(own, 'project'));
    try {
      const ran = await runTerminal('log', ['--json'], { cwd: path.join(own, 'project'), env: ownEnv });
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ workspace: { root: path.join(own, 'project') }, turns: [] });
    } finally {
      await spawnTerminal(['stop'], { cwd: own, env: ownEnv });
      await rm(own, { recursive: true, force: true });
    }
  }, 40_000);

  it('exits 2 with one line when none can be started', async () => {
    const own = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-terminal-nostart-')));
    // A state "dir" that is a file: turnback start cannot even make its lock.
    await writeFile(path.join(own, 'state'), 'not a folder');
    try {
      const ran = await spawnTerminal(['log'], {
        cwd: own,
        env: { XDG_STATE_HOME: path.join(own, 'state'), HOME: path.join(own, 'home') },
      });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^turnback log: no turnback service is running and turnback start failed: .+\n$/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 40_000);
});
