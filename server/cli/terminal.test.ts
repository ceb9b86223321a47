// The terminal commands against the user's service as a real process: every command in plain
// and --json form with its exit code, undo then redo returning the exact trees, undo --files,
// refusals. One service for the file; each test has a workspace (and so sessions) of its own.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { treeAsText } from '../testkit/tree.js';
import { agentTurn as turnIn } from './test/agent-turn.js';
import { startRealService, type TestService } from './test/real-service.js';
import { runTerminal, spawnTerminal } from './test/run-terminal.js';

let base: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
let service: TestService;
let count = 0;
/** A session belongs to the workspace of its first event: each test has its own. */
let SESSION = '';

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-terminal-')));
  service = await startRealService(base);
  env = service.env;
}, 40_000);

afterAll(async () => {
  await service?.close();
  await rm(base, { recursive: true, force: true });
});

beforeEach(async () => {
  workspace = path.join(base, `workspace-${++count}`);
  SESSION = `session-terminal-${count}`;
  await mkdir(path.join(workspace, 'src'), { recursive: true });
});

const agentTurn = (prompt: string, changes: Record<string, string | null>, sessionId = SESSION) => turnIn(service, workspace, sessionId, prompt, changes);
const agentCall = (route: string, body: Record<string, unknown>) => service.agent(route, body, workspace);

const run = (command: Parameters<typeof runTerminal>[0], args: string[], extra: { answers?: string[]; colour?: boolean; cwd?: string } = {}) =>
  runTerminal(command, args, { cwd: extra.cwd ?? workspace, env, answers: extra.answers, colour: extra.colour });
const tree = () => treeAsText(workspace);

describe('turnback log', () => {
  it('lists the turns newest first, one line each, and as JSON', async () => {
    await writeFile(path.join(workspace, 'src/app.ts'), 'one\n');
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
    expect(parsed.workspace.root).toBe(workspace);
  });

  it('says so when nothing is recorded, and refuses a bad count with exit 2', async () => {
    expect(await run('log', [])).toMatchObject({ code: 0, stdout: `no turns recorded in ${workspace} yet\n` });
    const bad = await run('log', ['-n', 'zero']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-n takes a count');
    expect(JSON.parse((await run('log', ['-n', '0', '--json'])).stdout).error.code).toBe('USAGE');
  });

  it('tags each line with its session when the workspace has several, and --session keeps one', async () => {
    await agentTurn('First session turn', { 'a.txt': 'a\n' }, `${SESSION}-a`);
    await agentTurn('Second session turn', { 'b.txt': 'b\n' }, `${SESSION}-b`);
    const both = (await run('log', [])).stdout.trim().split('\n');
    expect(both[0]).toContain(`${SESSION}-b  `);
    expect(both[0]).toContain('Second session turn');
    expect(both[1]).toContain(`${SESSION}-a  `);
    expect(both[1]).toContain('First session turn');
    const one = await run('log', ['--session', `${SESSION}-a`]);
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    expect(one.stdout).not.toContain(`${SESSION}-a  `);
    expect((await run('log', ['--session', 'session-'])).code).toBe(2);

    await agentTurn('Session a again', { 'a.txt': 'a2\n' }, `${SESSION}-a`);
    const titles = async (n: string) => JSON.parse((await run('log', ['-n', n, '--json'])).stdout).turns.map((t: { title: string }) => t.title);
    expect(await titles('2')).toEqual(['Session a again', 'Second session turn']);
    expect(await titles('5')).toEqual(['Session a again', 'Second session turn', 'First session turn']);
  });
});

describe('turnback show and diff', () => {
  it('shows a turn’s files and its shell commands, plain and as JSON', async () => {
    await writeFile(path.join(workspace, 'notes.md'), 'notes\n');
    const { turnId } = await agentCall('input', { sessionId: SESSION, platform: 'claude-code', sessionType: 'chat', content: 'Tidy up' });
    await agentCall('fs/write', { sessionId: SESSION, uri: 'workspace:/src/app.ts', content: 'export {};\n' });
    const { execId } = await agentCall('exec', { sessionId: SESSION, tool: 'Bash', command: 'rm notes.md' });
    await rm(path.join(workspace, 'notes.md'));
    await agentCall('exec-end', { sessionId: SESSION, execId });
    await agentCall('turn-end', { sessionId: SESSION });

    const plain = await run('show', ['1'], { cwd: path.join(workspace, 'src') });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`turn #1 ${turnId}`);
    expect(plain.stdout).toContain('Tidy up');
    expect(plain.stdout).toMatch(/created +app\.ts {2}\+1 −0/);
    expect(plain.stdout).toMatch(/deleted +\.\.\/notes\.md/);
    expect(plain.stdout).toContain('$ rm notes.md   (Bash)');
    expect(plain.stdout).toContain('changed ../notes.md');

    const json = JSON.parse((await run('show', ['last', '--json'])).stdout);
    expect(json.turn.turnId).toBe(turnId);
    expect(json.files.map((f: { uri: string }) => f.uri).sort()).toEqual(['workspace:/notes.md', 'workspace:/src/app.ts']);
    expect(json.turn.execCommands[0].command).toBe('rm notes.md');
  });

  it('prints a unified diff, plain in a pipe and coloured on a terminal, of chosen paths', async () => {
    await writeFile(path.join(workspace, 'src/app.ts'), 'a\nb\nc\n');
    await agentTurn('Change b', { 'src/app.ts': 'a\nB\nc\n', 'new.txt': 'fresh\n' });
    const plain = await run('diff', ['1']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain([
      'diff --turnback a/src/app.ts b/src/app.ts', '--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c',
    ].join('\n'));
    expect(plain.stdout).toContain(['diff --turnback a/new.txt b/new.txt', 'new file mode 644', '--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1,1 @@', '+fresh'].join('\n'));
    expect(plain.stdout).not.toContain('\x1b[');

    const chosen = await run('diff', ['1', 'app.ts'], { cwd: path.join(workspace, 'src'), colour: true });
    expect(chosen.stdout).not.toContain('new.txt');
    expect(chosen.stdout).toContain('\x1b[31m-b\x1b[39m');
    expect(chosen.stdout).toContain('\x1b[32m+B\x1b[39m');

    const json = JSON.parse((await run('diff', ['1', 'new.txt', '--json'])).stdout);
    expect(json.diffs).toHaveLength(1);
    expect(json.diffs[0]).toMatchObject({ uri: 'workspace:/new.txt', before: { exists: false }, after: { text: 'fresh\n' } });
    expect(json.diffs[0].patch).toContain('+fresh');
  });

  it('refuses a turn that does not exist and a path outside the workspace with exit 2', async () => {
    await agentTurn('One', { 'a.txt': 'a\n' });
    expect(await run('diff', ['7'])).toMatchObject({ code: 2, stderr: expect.stringContaining('has no turn 7') });
    expect(await run('diff', ['t_nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no turn t_nope') });
    expect(await run('diff', ['1', '../elsewhere.txt'])).toMatchObject({ code: 2, stderr: expect.stringContaining('not a path inside the workspace') });
    expect(await run('show', [])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing argument') });
  });

  it('refuses the home folder itself as a workspace with exit 2, registering nothing', async () => {
    const ran = await run('log', ['--json'], { cwd: env.HOME as string });
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.stdout).error).toMatchObject({ code: 'WORKSPACE_REFUSED', message: expect.stringContaining('home folder') });
    const plain = await run('undo', ['--yes'], { cwd: env.HOME as string });
    expect(plain).toMatchObject({ code: 2, stderr: expect.stringMatching(/^turnback undo: the home folder .* cannot be a workspace/) });
  });
});

describe('turnback undo and redo', () => {
  it('undoes the latest agent turn exactly, then redo brings the agent’s tree back exactly', async () => {
    await writeFile(path.join(workspace, 'src/app.ts'), 'export const answer = 41;\n');
    await writeFile(path.join(workspace, 'keep.txt'), 'keep\n', { mode: 0o640 });
    await agentTurn('First', { 'first.txt': '1\n' });
    const before = await tree();
    await agentTurn('Second', { 'src/app.ts': 'export const answer = 42;\n', 'keep.txt': null, 'added/deep.txt': 'deep\n' });
    const after = await tree();

    const undo = await run('undo', ['--yes']);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain('Undo turn #2 "Second":');
    expect(undo.stdout).toMatch(/restore +src\/app\.ts/);
    expect(undo.stdout).toMatch(/remove +added\/deep\.txt/);
    expect(undo.stdout).toMatch(/restored +keep\.txt/);
    expect(await tree()).toEqual(before);

    const redo = await run('redo', ['--yes', '--json']);
    expect(redo.code).toBe(0);
    expect(JSON.parse(redo.stdout).result.ok).toBe(true);
    expect(await tree()).toEqual(after);

    // The undo was taken back, so the latest agent turn is the one to undo again.
    expect((await run('undo', ['--yes'])).code).toBe(0);
    expect(await tree()).toEqual(before);
  });

  it('previews a rename as a move back and moves it back', async () => {
    await writeFile(path.join(workspace, 'old.txt'), 'kept bytes\n', { mode: 0o600 });
    const before = await tree();
    await agentCall('input', { sessionId: SESSION, platform: 'claude-code', sessionType: 'chat', content: 'Rename' });
    await agentCall('fs/rename', { sessionId: SESSION, from: 'workspace:/old.txt', to: 'workspace:/src/new.txt' });
    await agentCall('turn-end', { sessionId: SESSION });
    const undo = await run('undo', ['--yes'], { cwd: path.join(workspace, 'src') });
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/move back +new\.txt -> \.\.\/old\.txt\n/);
    expect(undo.stdout).toMatch(/moved back new\.txt -> \.\.\/old\.txt\n/);
    expect(await tree()).toEqual(before);
  });

  it('undo --files restores only the chosen paths', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(workspace, 'b.txt'), 'b\n');
    await agentTurn('Edit both', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const result = await run('undo', ['1', '--files', 'a.txt', '--yes', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.result.restored).toEqual(['workspace:/a.txt']);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('B\n');
    expect((await run('undo', ['--files', 'a.txt', 'b.txt', '--with-chat', '--yes'])).code).toBe(2);
  });

  it('refuses an undo whose files changed since (exit 1, nothing touched), names the turn behind it, and --force does it', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await agentTurn('Write a', { 'a.txt': 'A\n' });
    await agentTurn('Write a again', { 'a.txt': 'AA\n' });
    const untouched = await tree();
    const plain = await run('undo', ['1', '--yes']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/restore +a\.txt +conflict: changed since by turn #2 "Write a again"/);
    expect(plain.stderr).toContain('not done: 1 path(s) changed since the turn; --force does it anyway');
    expect(await tree()).toEqual(untouched);

    const json = await run('undo', ['1', '--yes', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ result: null, error: { code: 'CONFLICT', conflicts: ['workspace:/a.txt'] } });

    await writeFile(path.join(workspace, 'a.txt'), 'mine\n');
    expect((await run('undo', ['--yes'])).code).toBe(1);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('mine\n');
    expect((await run('undo', ['1', '--yes', '--force'])).code).toBe(0);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('never undoes an active turn', async () => {
    await agentTurn('Done', { 'a.txt': 'a\n' });
    await agentCall('input', { sessionId: SESSION, platform: 'claude-code', sessionType: 'chat', content: 'Working' });
    await agentCall('fs/write', { sessionId: SESSION, uri: 'workspace:/b.txt', content: 'b\n' });
    const latest = await run('undo', ['--yes']);
    expect(latest.code).toBe(1);
    expect(latest.stderr).toContain('turn #2 is still running');
    expect(JSON.parse((await run('undo', ['2', '--yes', '--json'])).stdout).error.code).toBe('TURN_ACTIVE');
    // An older turn of a session with a running turn: the service refuses it (409 TURN_ACTIVE).
    expect((await run('undo', ['1', '--yes'])).code).toBe(1);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('asks before undoing: "n" changes nothing (exit 1), "y" undoes; without a terminal it needs --yes (exit 2)', async () => {
    const start = await tree();
    await agentTurn('Make a', { 'a.txt': 'a\n' });
    const made = await tree();
    const no = await run('undo', [], { answers: ['n'] });
    expect(no.asked).toEqual(['Undo? [y/N] ']);
    expect(no.code).toBe(1);
    expect(await tree()).toEqual(made);
    const piped = await run('undo', []);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('confirm with --yes');
    expect(await tree()).toEqual(made);
    expect((await run('undo', [], { answers: ['y'] })).code).toBe(0);
    expect(await tree()).toEqual(start);
  });

  it('says there is nothing to undo or redo (exit 1)', async () => {
    expect(await run('undo', ['--yes'])).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing is recorded') });
    await agentTurn('Make a', { 'a.txt': 'a\n' });
    expect(await run('redo', ['--yes'])).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to redo') });
    expect((await run('undo', ['--yes'])).code).toBe(0);
    expect(await run('undo', ['--yes'])).toMatchObject({ code: 1, stderr: expect.stringContaining('every agent turn is undone') });
  });
});

describe('turnback rewind and restore', () => {
  it('rewind <turn> returns the tree to that turn’s start, and redo takes it back', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await agentTurn('One', { 'a.txt': 'a1\n' });
    const atTwo = await tree();
    await agentTurn('Two', { 'a.txt': 'a2\n', 'b.txt': 'b\n' });
    await agentTurn('Three', { 'b.txt': null, 'c.txt': 'c\n' });
    const atEnd = await tree();
    const rewind = await run('rewind', ['2', '--yes']);
    expect(rewind.code).toBe(0);
    expect(rewind.stdout).toContain('Rewind to the start of turn #2 "Two":');
    expect(await tree()).toEqual(atTwo);
    const json = JSON.parse((await run('log', ['--json'])).stdout);
    expect(json.turns[0]).toMatchObject({ number: 4, kind: 'rollback' });
    const [two, three] = json.turns.slice(1, 3).reverse();
    expect((await run('show', ['4'])).stdout).toContain(`undoes   ${two.turnId} ${three.turnId}\n`);
    expect((await run('show', ['2'])).stdout).toContain(`undone   by ${json.turns[0].turnId}\n`);
    expect((await run('redo', ['--yes'])).code).toBe(0);
    expect(await tree()).toEqual(atEnd);
  });

  it('restore <path> --from <turn> puts back just that path, by the turn’s id prefix', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(workspace, 'b.txt'), 'b\n');
    const turnId = await agentTurn('Both', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const result = await run('restore', ['b.txt', '--from', turnId.slice(0, 20), '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/restored +b\.txt/);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('b\n');
    expect(await run('restore', ['a.txt'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs --from') });
    expect(JSON.parse((await run('restore', ['a.txt', '--from', '1', '--json'])).stdout)).toMatchObject({ error: { code: 'CONFIRMATION_NEEDED' } });
  });
});

describe('the bin as a process', () => {
  it('runs log --json, and exits 2 for undo in a pipe without --yes and 1 for a conflict', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await agentTurn('Write a', { 'a.txt': 'A\n' });
    const log = await spawnTerminal(['log', '--json'], { cwd: workspace, env });
    expect(log.code).toBe(0);
    expect(JSON.parse(log.stdout).turns).toHaveLength(1);
    expect((await spawnTerminal(['undo'], { cwd: workspace, env })).code).toBe(2);
    await writeFile(path.join(workspace, 'a.txt'), 'mine\n');
    const refusedRun = await spawnTerminal(['undo', '--yes'], { cwd: workspace, env });
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
      const ran = await spawnTerminal(['log'], { cwd: own, env: { XDG_STATE_HOME: path.join(own, 'state'), HOME: path.join(own, 'home') } });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^turnback log: no turnback service is running and turnback start failed: .+\n$/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 40_000);
});
