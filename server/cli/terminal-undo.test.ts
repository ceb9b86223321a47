// undo, redo, rewind and restore against the user's service as a real process: the exact trees
// back, undo --files, a conflict refused (exit 1), an active turn never undone, the prompt.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTerminalFixture } from './test/terminal-fixture.js';

const t = useTerminalFixture('terminal-undo');
const { agentTurn, agentCall, run, tree } = t;

describe('turnback undo and redo', () => {
  it('undoes the latest agent turn exactly, then redo brings the agent’s tree back exactly', async () => {
    await writeFile(path.join(t.workspace, 'src/app.ts'), 'export const answer = 41;\n');
    await writeFile(path.join(t.workspace, 'keep.txt'), 'keep\n', { mode: 0o640 });
    await agentTurn('First', { 'first.txt': '1\n' });
    const before = await tree();
    await agentTurn('Second', {
      'src/app.ts': 'export const answer = 42;\n',
      'keep.txt': null,
      'added/deep.txt': 'deep\n',
    });
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

  it('titles an undo "Undo of #N" and a redo "Redo of #N", and says how many paths were already as they were', async () => {
    await agentTurn('First', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    expect((await run('undo', ['--yes'])).code).toBe(0);
    expect((await run('redo', ['--yes'])).code).toBe(0);
    const titles = JSON.parse((await run('log', ['--json'])).stdout).turns.map((turn: { title: string }) => turn.title);
    expect(titles).toEqual(['Redo of #1', 'Undo of #1', 'First']);
    // Undone by hand already: the undo finds both paths as they were.
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
    await agentTurn('Second', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(t.workspace, 'b.txt'), 'b\n');
    const again = await run('undo', ['--yes', '--force']);
    expect(again.stdout).toContain('2 paths already as they were');
    expect(again.stdout).not.toContain('paths already as it was');
  });

  it("after undoing a git mv, says git's index is out of step, and --git-add stages the paths as they are", async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], {
        cwd: t.workspace,
        encoding: 'utf8',
      });
    git('init', '-q');
    await mkdir(path.join(t.workspace, 'lib'));
    await writeFile(path.join(t.workspace, 'lib/a.js'), 'a\n');
    git('add', 'lib/a.js');
    git('commit', '-qm', 'start');
    await agentCall('input', { sessionId: t.session, platform: 'claude-code', sessionType: 'chat', content: 'Move' });
    const { execId } = await agentCall('exec', { sessionId: t.session, tool: 'Bash', command: 'git mv lib pkg' });
    git('mv', 'lib', 'pkg');
    await agentCall('exec-end', { sessionId: t.session, execId });
    await agentCall('turn-end', { sessionId: t.session });

    const undo = await run('undo', ['--yes']);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain("git's index is out of step");
    expect(undo.stdout).toMatch(/\n {4}lib\/a\.js\n {4}pkg\/a\.js\n/);
    expect(git('status', '--porcelain')).not.toBe('');

    expect((await run('redo', ['--yes'])).code).toBe(0);
    const mended = await run('undo', ['--yes', '--git-add', '--json']);
    expect(JSON.parse(mended.stdout).gitIndex).toEqual({ staged: ['lib/a.js', 'pkg/a.js'], added: true });
    expect(git('status', '--porcelain')).toBe('');
  });

  it('sums up an undo of many paths by folder, with counts; --verbose lists every path', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`gen/a/f${i}.txt`] = `${i}\n`;
    for (let i = 0; i < 30; i++) files[`gen/b/f${i}.txt`] = `${i}\n`;
    await agentTurn('Generate', files);
    const undo = await run('undo', ['--yes']);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/^ {2}remove +60 paths in gen\/a\/\n {2}remove +30 paths in gen\/b\/$/m);
    expect(undo.stdout).toMatch(/^ {2}removed +60 paths in gen\/a\/$/m);
    expect(undo.stdout).toContain('--verbose lists every path');
    expect(undo.stdout.split('\n').length).toBeLessThan(30);
    expect((await run('redo', ['--yes'])).code).toBe(0);
    const verbose = await run('undo', ['--yes', '--verbose']);
    expect(verbose.stdout).toMatch(/^ {2}removed +gen\/b\/f29\.txt$/m);
    expect(verbose.stdout.split('\n').length).toBeGreaterThan(180);
  });

  it('previews a rename as a move back and moves it back', async () => {
    await writeFile(path.join(t.workspace, 'old.txt'), 'kept bytes\n', { mode: 0o600 });
    const before = await tree();
    await agentCall('input', { sessionId: t.session, platform: 'claude-code', sessionType: 'chat', content: 'Rename' });
    await agentCall('fs/rename', { sessionId: t.session, from: 'workspace:/old.txt', to: 'workspace:/src/new.txt' });
    await agentCall('turn-end', { sessionId: t.session });
    const undo = await run('undo', ['--yes'], { cwd: path.join(t.workspace, 'src') });
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/move back +new\.txt -> \.\.\/old\.txt\n/);
    expect(undo.stdout).toMatch(/moved back new\.txt -> \.\.\/old\.txt\n/);
    expect(await tree()).toEqual(before);
  });

  it('undo --files restores only the chosen paths', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(t.workspace, 'b.txt'), 'b\n');
    await agentTurn('Edit both', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const result = await run('undo', ['1', '--files', 'a.txt', '--yes', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.result.restored).toEqual(['workspace:/a.txt']);
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(t.workspace, 'b.txt'), 'utf8')).toBe('B\n');
    expect((await run('undo', ['--files', 'a.txt', 'b.txt', '--with-chat', '--yes'])).code).toBe(2);
  });

  it('refuses an undo whose files changed since (exit 1, nothing touched), names the turn behind it, and --force does it', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
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
    expect(JSON.parse(json.stdout)).toMatchObject({
      result: null,
      error: { code: 'CONFLICT', conflicts: ['workspace:/a.txt'] },
    });

    await writeFile(path.join(t.workspace, 'a.txt'), 'mine\n');
    expect((await run('undo', ['--yes'])).code).toBe(1);
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('mine\n');
    expect((await run('undo', ['1', '--yes', '--force'])).code).toBe(0);
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('never undoes an active turn', async () => {
    await agentTurn('Done', { 'a.txt': 'a\n' });
    await agentCall('input', {
      sessionId: t.session,
      platform: 'claude-code',
      sessionType: 'chat',
      content: 'Working',
    });
    await agentCall('fs/write', { sessionId: t.session, uri: 'workspace:/b.txt', content: 'b\n' });
    const latest = await run('undo', ['--yes']);
    expect(latest.code).toBe(1);
    expect(latest.stderr).toContain('turn #2 is still running');
    expect(JSON.parse((await run('undo', ['2', '--yes', '--json'])).stdout).error.code).toBe('TURN_ACTIVE');
    // An older turn of a session with a running turn: the service refuses it (409 TURN_ACTIVE).
    expect((await run('undo', ['1', '--yes'])).code).toBe(1);
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('a\n');
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
    expect(await run('undo', ['--yes'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('nothing is recorded'),
    });
    await agentTurn('Make a', { 'a.txt': 'a\n' });
    expect(await run('redo', ['--yes'])).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to redo') });
    expect((await run('undo', ['--yes'])).code).toBe(0);
    expect(await run('undo', ['--yes'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('every agent turn is undone'),
    });
  });
});

describe('turnback rewind and restore', () => {
  it('rewind <turn> returns the tree to that turn’s start, and redo takes it back', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
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
    await writeFile(path.join(t.workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(t.workspace, 'b.txt'), 'b\n');
    const turnId = await agentTurn('Both', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const result = await run('restore', ['b.txt', '--from', turnId.slice(0, 20), '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/restored +b\.txt/);
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(await readFile(path.join(t.workspace, 'b.txt'), 'utf8')).toBe('b\n');
    expect(await run('restore', ['a.txt'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs --from') });
    expect(JSON.parse((await run('restore', ['a.txt', '--from', '1', '--json'])).stdout)).toMatchObject({
      error: { code: 'CONFIRMATION_NEEDED' },
    });
  });
});
