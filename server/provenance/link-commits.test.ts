// Commits linked to the turns that wrote their lines, on a real repository and a real engine.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { makeSandbox, type Sandbox } from '../testkit/engine-harness.js';
import { readNotes } from '../git/notes.js';
import { linkCommits } from './link-commits.js';
import { blameFile, commitsWithTurns } from './read.js';

let sandbox: Sandbox;
let engine: Engine;
const sh = (...args: string[]) => execFileSync('git', args, { cwd: sandbox.workspace, encoding: 'utf8' }).trim();
const head = () => sh('rev-parse', 'HEAD');

async function turn(
  sessionId: string,
  platform: string,
  prompt: string,
  files: Record<string, string>,
): Promise<string> {
  const { turnId } = await engine.input({ sessionId, platform, sessionType: 'cli', content: prompt });
  for (const [name, text] of Object.entries(files))
    await engine.storage.writeFile(`workspace:/${name}`, text, { sessionId });
  await engine.turnEnd({ sessionId });
  return turnId as string;
}

beforeEach(async () => {
  sandbox = await makeSandbox();
  sh('init', '-q', '-b', 'main');
  sh('config', 'user.name', 'Pat Person');
  sh('config', 'user.email', 'pat@example.com');
  writeFileSync(join(sandbox.workspace, 'app.txt'), 'p1\np2\n');
  sh('add', '.');
  sh('commit', '-qm', 'start');
  engine = await sandbox.open({ scopes: ['*'] });
  await linkCommits(engine); // the first look marks where the reflog starts
});

describe('linkCommits', () => {
  it('blames lines of the person and of two agents in one file each right', async () => {
    const a = await turn('s-claude', 'claude-code', 'add a line\nsecond line', { 'app.txt': 'p1\np2\na1\n' });
    writeFileSync(join(sandbox.workspace, 'app.txt'), 'p1\np2\na1\nperson\n');
    const b = await turn('s-codex', 'codex', 'add b', { 'app.txt': 'p1\np2\na1\nperson\nb1\nb2\n' });
    sh('commit', '-qam', 'work');
    const linked = await linkCommits(engine);
    expect(linked.noted).toEqual([head()]);
    const note = (await readNotes(sandbox.workspace)).get(head());
    expect(note?.turns.map((t) => [t.id, t.host, t.files])).toEqual([
      [a, 'claude-code', { 'app.txt': '3' }],
      [b, 'codex', { 'app.txt': '5-6' }],
    ]);
    expect(note?.turns[0]).toMatchObject({ session: 's-claude', title: 'add a line', lines: 1 });
    expect(note?.turns[0].record).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(note?.turns[0].prompt).toBeUndefined();

    const blame = await blameFile(sandbox.workspace, 'app.txt');
    expect(blame.lines.map((l) => [l.text, l.turn?.host ?? 'person'])).toEqual([
      ['p1', 'person'],
      ['p2', 'person'],
      ['a1', 'claude-code'],
      ['person', 'person'],
      ['b1', 'codex'],
      ['b2', 'codex'],
    ]);
    const commits = await commitsWithTurns(sandbox.workspace, 'HEAD~1..HEAD');
    expect(commits.map((c) => [c.subject, c.turns.map((t) => t.id)])).toEqual([['work', [a, b]]]);
    expect((await commitsWithTurns(sandbox.workspace, 'HEAD~1'))[0]).toMatchObject({ subject: 'start', turns: [] });
  });

  it('leaves a turn undone before the commit out of every note', async () => {
    const kept = await turn('s1', 'claude-code', 'keep', { 'kept.txt': 'k\n' });
    const undone = await turn('s1', 'claude-code', 'undo me', { 'gone.txt': 'g\n', 'app.txt': 'p1\np2\nundone\n' });
    await engine.rollback(undone);
    sh('add', '.');
    sh('commit', '-qm', 'after undo');
    await linkCommits(engine);
    const note = (await readNotes(sandbox.workspace)).get(head());
    expect(note?.turns.map((t) => t.id)).toEqual([kept]);
  });

  it('carries the note to an amended and to a rebased commit', async () => {
    const a = await turn('s1', 'claude-code', 'feature', { 'f.txt': 'f1\n' });
    sh('checkout', '-qb', 'topic');
    sh('add', '.');
    sh('commit', '-qm', 'feature');
    await linkCommits(engine);
    writeFileSync(join(sandbox.workspace, 'f.txt'), 'f1\nby hand\n');
    sh('commit', '-qa', '--amend', '--no-edit');
    await linkCommits(engine);
    const amended = head();
    expect((await readNotes(sandbox.workspace)).get(amended)?.turns.map((t) => [t.id, t.files])).toEqual([
      [a, { 'f.txt': '1' }],
    ]);
    sh('checkout', '-q', 'main');
    writeFileSync(join(sandbox.workspace, 'other.txt'), 'o\n');
    sh('add', 'other.txt');
    sh('commit', '-qm', 'other');
    sh('checkout', '-q', 'topic');
    sh('rebase', '-q', 'main');
    await linkCommits(engine);
    const rebased = head();
    expect(rebased).not.toBe(amended);
    expect((await readNotes(sandbox.workspace)).get(rebased)?.turns.map((t) => t.id)).toEqual([a]);
  });

  it('keeps the prompt out unless prompts are shared, and masks a key in it', async () => {
    sh('config', 'turnback.prompts', 'true');
    await turn('s1', 'codex', 'deploy\nuse key sk-abcdefghijklmnopqrstuvwx1234 and AKIAABCDEFGHIJKLMNOP', {
      'd.txt': 'd\n',
    });
    sh('add', '.');
    sh('commit', '-qm', 'deploy');
    await linkCommits(engine);
    const raw = sh('notes', '--ref', 'turnback', 'show', 'HEAD');
    expect(raw).toContain('deploy');
    expect(raw).not.toContain('sk-abcdefghijklmnop');
    expect(raw).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(raw).toContain('[masked]');
  });

  it("at a store's first link, notes the commits made since its first agent turn, not those before", async () => {
    // A store whose turns predate its first link (recorded before provenance was on): no cursor yet.
    rmSync(join(engine.dataDir, 'provenance-cursor.json'));
    const before = head();
    const a = await turn('s1', 'claude-code', 'add a line', { 'app.txt': 'p1\np2\na1\n' });
    sh('commit', '-qam', 'agent work');
    const linked = await linkCommits(engine);
    expect(linked.noted).toEqual([head()]);
    const notes = await readNotes(sandbox.workspace);
    expect(notes.get(head())?.turns.map((t) => t.id)).toEqual([a]);
    expect(notes.has(before)).toBe(false);
    // The cursor is now past it: a second look notes nothing again.
    expect((await linkCommits(engine)).noted).toEqual([]);
  });

  it("names in a commit's note only the turns whose lines the commit changed, not an earlier turn already in its parent", async () => {
    const a = await turn('s1', 'claude-code', 'add a', { 'app.txt': 'p1\np2\na1\n' });
    // The parent's committer time falls in the second turn a ended in, as when commits follow turns fast.
    const endedAt = Date.parse(engine.listTurns('s1').find((t) => t.turnId === a)!.endedAt!);
    execFileSync('git', ['commit', '-qam', 'a'], {
      cwd: sandbox.workspace,
      env: { ...process.env, GIT_COMMITTER_DATE: `@${Math.floor(endedAt / 1000)} +0000` },
    });
    await linkCommits(engine);
    const b = await turn('s2', 'codex', 'add b', { 'app.txt': 'p1\np2\na1\nb1\n' });
    sh('commit', '-qam', 'b');
    await linkCommits(engine);
    const note = (await readNotes(sandbox.workspace)).get(head());
    expect(note?.turns.map((t) => [t.id, t.files])).toEqual([[b, { 'app.txt': '4' }]]);
  });

  it("blames repeated lines as git pairs them: a block inserted before its twin is the turn's, line for line", async () => {
    writeFileSync(join(sandbox.workspace, 'code.js'), 'if (x) {\n  f();\n}\n');
    sh('add', 'code.js');
    sh('commit', '-qm', 'code');
    await linkCommits(engine);
    const a = await turn('s1', 'claude-code', 'guard g', { 'code.js': 'if (x) {\n  g();\n}\nif (x) {\n  f();\n}\n' });
    sh('commit', '-qam', 'guard');
    await linkCommits(engine);
    expect((await readNotes(sandbox.workspace)).get(head())?.turns.map((t) => [t.id, t.files])).toEqual([
      [a, { 'code.js': '1-3' }],
    ]);
    const blame = await blameFile(sandbox.workspace, 'code.js');
    expect(blame.lines.map((l) => [l.text, l.turn?.host ?? 'person'])).toEqual([
      ['if (x) {', 'claude-code'],
      ['  g();', 'claude-code'],
      ['}', 'claude-code'],
      ['if (x) {', 'person'],
      ['  f();', 'person'],
      ['}', 'person'],
    ]);
  });

  it("lists every file of a turn of up to 200 files, and past that calls an unlisted file's lines a turn's maybe, never the person's", async () => {
    const files = (n: number, tag: string) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`${tag}/f${String(i).padStart(3, '0')}.txt`, `${tag} ${i}\n`]),
      );
    const wide = await turn('s1', 'claude-code', 'touch 30 files', files(30, 'wide'));
    sh('add', '.');
    sh('commit', '-qm', 'wide');
    await linkCommits(engine);
    const note = (await readNotes(sandbox.workspace)).get(head());
    expect(Object.keys(note!.turns[0].files)).toHaveLength(30);
    expect(note!.turns[0].moreFiles).toBeUndefined();
    expect((await blameFile(sandbox.workspace, 'wide/f029.txt')).lines[0].turn?.id).toBe(wide);

    await turn('s1', 'codex', 'touch 201 files', files(201, 'huge'));
    sh('add', '.');
    sh('commit', '-qm', 'huge');
    await linkCommits(engine);
    const huge = (await readNotes(sandbox.workspace)).get(head())!.turns[0];
    expect([Object.keys(huge.files).length, huge.moreFiles]).toEqual([200, 1]);
    const unlisted = ['huge/f000.txt', 'huge/f200.txt'].find((f) => huge.files[f] === undefined)!;
    const [line] = (await blameFile(sandbox.workspace, unlisted)).lines;
    expect(line).toMatchObject({ turn: null, unlisted: true });
    // A person's line in a commit whose note lists all of its turns' files stays the person's.
    expect((await blameFile(sandbox.workspace, 'app.txt')).lines[0].unlisted).toBeUndefined();
  });
});
