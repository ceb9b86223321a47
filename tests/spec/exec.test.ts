// Shell commands the engine cannot see into, undone by the scans around them: real commands
// in a real temp tree, each turn rolled back to its exact start tree, and its undo bringing the
// command's result back.
import { execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { makeSandbox, plant, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { type Tree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

const START = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/c.ts': 'export const c = 3;\n',
  'lib/x/one.txt': 'one\n',
  'lib/x/deep/two.txt': 'two\n',
  'bin/run.sh': { content: '#!/bin/sh\necho run\n', mode: 0o644 },
  'data.bin': Buffer.from([0, 1, 2, 3, 255, 254]),
  '.env': 'SECRET=1\n',
  '.gitignore': '.env\nnode_modules/\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
} as const;

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, START as never);
  engine = await sandbox.open();
});

function sh(command: string): void {
  execFileSync('/bin/bash', ['-c', command], { cwd: sandbox.workspace, stdio: 'pipe' });
}

/** One command as a host runs it: the before scan, the command, the after scan. */
async function command(line: string): Promise<{ changed: string[]; skipped: { uri: string; reason: string }[] }> {
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: line });
  expect(execId).toBeTypeOf('string');
  sh(line);
  const { changed, skipped } = await engine.execEnd({ ...s, execId: execId! });
  return { changed, skipped };
}

async function turnOf(body: () => Promise<unknown>): Promise<string> {
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'run commands' });
  await body();
  await engine.turnEnd(s);
  return turnId!;
}

/** Rolls the turn back to exactly `start`, then undoes the rollback back to exactly `end`. */
async function rollsBackAndRedoes(turnId: string, start: Tree, end: Tree): Promise<void> {
  const result = await engine.rollback(turnId);
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
  assertSameTree(start, await sandbox.tree());
  const undo = await engine.rollback(result.rollbackTurnId!);
  expect(undo.ok).toBe(true);
  assertSameTree(end, await sandbox.tree());
}

describe('shell commands', () => {
  it.each([
    ['sed -i on several files', "sed -i 's/export/export default/' src/a.ts src/b.ts src/c.ts"],
    ['rm -rf of a directory', 'rm -rf lib/x'],
    ['mv of a directory', 'mv lib/x lib/y'],
    ['chmod +x', 'chmod +x bin/run.sh'],
    ['ln -s', 'ln -s ../src/a.ts lib/link-to-a'],
    ['a new nested directory', 'mkdir -p gen/out/deep && echo made > gen/out/deep/file.txt'],
    ['a binary append', "printf '\\x00\\x07\\xff' >> data.bin"],
    ['rm of a file .gitignore names', 'rm .env'],
    ['a heredoc', "cat > notes.md <<'EOF'\n# Notes\nwritten by a heredoc\nEOF"],
    ['git-style checkout of a file', "printf 'export const a = 0;\\n' > src/a.ts.new && mv src/a.ts.new src/a.ts"],
  ])('%s rolls back exactly, and its undo brings the result back', async (_label, line) => {
    const start = await sandbox.tree();
    const turnId = await turnOf(() => command(line));
    const end = await sandbox.tree();
    const turn = engine.getManifest(turnId).turn;
    expect(turn).toMatchObject({ execUsed: true, execCaptured: true });
    expect(turn.execCommands[0]).toMatchObject({ tool: 'Bash', command: line, endedAt: expect.any(String) });
    expect(turn.execCommands[0].changed!.length).toBeGreaterThan(0);
    // Each entry is the command's: a path it changed (exec), or a path it moved (rename, move; exec-moves.test.ts).
    expect(
      engine
        .getManifest(turnId)
        .entries.every((e) => ['exec', 'rename', 'move'].includes(e.op) && e.execId === turn.execCommands[0].execId),
    ).toBe(true);
    await rollsBackAndRedoes(turnId, start, end);
  });

  it('reports what each command changed, directories included', async () => {
    let outcome!: Awaited<ReturnType<typeof command>>;
    const turnId = await turnOf(async () => {
      outcome = await command('mv lib/x lib/y && rm src/c.ts && mkdir -p gen/a');
    });
    expect(outcome.skipped).toEqual([]);
    expect(outcome.changed.sort()).toEqual(
      [
        'lib/x',
        'lib/x/deep',
        'lib/x/deep/two.txt',
        'lib/x/one.txt',
        'lib/y',
        'lib/y/deep',
        'lib/y/deep/two.txt',
        'lib/y/one.txt',
        'src/c.ts',
        'gen',
        'gen/a',
      ]
        .map(ws)
        .sort(),
    );
    const kinds = Object.fromEntries(engine.getManifest(turnId).files.map((f) => [f.uri, f.change]));
    // The moved folder is one move (its origin's row folded into it by the console), as a storage rename is.
    expect(kinds).toMatchObject({
      [ws('lib/x')]: 'dir-deleted',
      [ws('lib/y')]: 'renamed',
      [ws('src/c.ts')]: 'deleted',
      [ws('gen/a')]: 'dir-created',
    });
  });

  it('a change under node_modules is neither recorded nor touched by rollback', async () => {
    const turnId = await turnOf(() =>
      command("echo 'changed' > node_modules/dep/index.js && echo 'a changed' >> src/a.ts"),
    );
    const files = engine.getManifest(turnId).files.map((f) => f.uri);
    expect(files).toEqual([ws('src/a.ts')]);
    expect((await engine.rollback(turnId)).ok).toBe(true);
    expect(await readFile(join(sandbox.workspace, 'node_modules/dep/index.js'), 'utf8')).toBe('changed\n');
    expect(await readFile(join(sandbox.workspace, 'src/a.ts'), 'utf8')).toBe(START['src/a.ts']);
  });

  it('a background process writing after the command returned is caught by the turn end', async () => {
    const start = await sandbox.tree();
    const turnId = await turnOf(async () => {
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'later' });
      const writer = spawn('/bin/bash', ['-c', 'sleep 0.3; echo late >> src/b.ts; mkdir late-dir'], {
        cwd: sandbox.workspace,
        stdio: 'ignore',
      });
      expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([]);
      await new Promise((resolve) => writer.on('exit', resolve));
    });
    const end = await sandbox.tree();
    expect(
      engine
        .getManifest(turnId)
        .files.map((f) => f.uri)
        .sort(),
    ).toEqual([ws('late-dir'), ws('src/b.ts')]);
    await rollsBackAndRedoes(turnId, start, end);
  });

  it('a command still open at turn end gets its after scan then', async () => {
    const start = await sandbox.tree();
    const turnId = await turnOf(async () => {
      await engine.exec({ ...s, tool: 'exec_background', command: 'npm run watch' });
      sh('echo built > out.js');
    });
    const turn = engine.getManifest(turnId).turn;
    expect(turn.execCommands[0]).toMatchObject({ endedAt: expect.any(String), changed: [ws('out.js')] });
    expect(turn.execCaptured).toBe(true);
    await rollsBackAndRedoes(turnId, start, await sandbox.tree());
  });

  it("a person's edit between turns is never a turn's: it is the next baseline, and drift for the older turn", async () => {
    const first = await turnOf(() => command("echo 'by the agent' >> src/a.ts"));
    await writeFile(join(sandbox.workspace, 'src/b.ts'), 'the person wrote this\n');
    const afterPerson = await sandbox.tree();
    const second = await turnOf(() => command("echo 'agent again' >> src/c.ts"));
    expect(engine.getManifest(second).files.map((f) => f.uri)).toEqual([ws('src/c.ts')]);
    expect((await engine.rollback(second)).ok).toBe(true);
    assertSameTree(afterPerson, await sandbox.tree());
    // The person's own file is not in the first turn either, and stays as they wrote it.
    expect(engine.getManifest(first).files.map((f) => f.uri)).toEqual([ws('src/a.ts')]);
    expect((await engine.rollback(first)).ok).toBe(true);
    expect(await readFile(join(sandbox.workspace, 'src/b.ts'), 'utf8')).toBe('the person wrote this\n');
  });

  it('a file over maxFileSize is skipped and reported, never silently; the rest rolls back', async () => {
    await engine.close();
    await writeFile(join(sandbox.workspace, 'big.log'), 'x'.repeat(4096));
    engine = await sandbox.open({ maxFileSize: 1024 });
    let outcome!: Awaited<ReturnType<typeof command>>;
    const turnId = await turnOf(async () => {
      outcome = await command("echo more >> big.log && echo 'a2' >> src/a.ts");
    });
    expect(outcome.skipped).toEqual([{ uri: ws('big.log'), reason: 'too-large' }]);
    const turn = engine.getManifest(turnId).turn;
    expect(turn.execCaptured).toBe(false);
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('big.log'), code: 'TOO_LARGE' })]);
    expect(result.restored).toEqual([ws('src/a.ts')]);
    expect(await readFile(join(sandbox.workspace, 'src/a.ts'), 'utf8')).toBe(START['src/a.ts']);
  });

  it('a file too large at exec-end and small again by the turn end is kept then: the turn skips nothing, and rolls back', async () => {
    await engine.close();
    engine = await sandbox.open({ maxFileSize: 1024 });
    const start = await sandbox.tree();
    let outcome!: Awaited<ReturnType<typeof command>>;
    const turnId = await turnOf(async () => {
      outcome = await command('head -c 4096 /dev/zero > src/a.ts');
      // Something other than the command (a build's second step, a log cut back) after exec-end.
      await writeFile(join(sandbox.workspace, 'src/a.ts'), 'small again\n');
    });
    expect(outcome.skipped).toEqual([{ uri: ws('src/a.ts'), reason: 'too-large' }]);
    const { turn, files } = engine.getManifest(turnId);
    expect(files).toEqual([
      expect.objectContaining({ uri: ws('src/a.ts'), after: expect.objectContaining({ size: 12 }) }),
    ]);
    expect(files[0]?.skipped).toBeUndefined();
    expect(turn.skippedCount).toBe(0);
    await rollsBackAndRedoes(turnId, start, await sandbox.tree());
  });

  it('several commands in one turn, mixed with storage writes, roll back as one', async () => {
    const start = await sandbox.tree();
    const turnId = await turnOf(async () => {
      await command('echo one >> src/a.ts');
      await engine.storage.writeFile(ws('src/a.ts'), 'written through storage\n', s);
      await command('mv src/a.ts src/renamed.ts && rm -rf lib');
      await engine.storage.mkdir(ws('made/by/storage'), s);
      await command('echo three > made/by/storage/file.txt');
    });
    const end = await sandbox.tree();
    expect(engine.getManifest(turnId).turn.execCommands).toHaveLength(3);
    await rollsBackAndRedoes(turnId, start, end);
  });

  it('an exec outside a turn records nothing; its end answers no turn', async () => {
    expect(await engine.exec({ ...s, tool: 'Bash', command: 'ls' })).toEqual({ turnId: null, execId: null });
    expect(await engine.execEnd({ ...s, execId: 'x_unknown' })).toEqual({ turnId: null, changed: [], skipped: [] });
  });

  it('an unknown command id in an active turn is a BAD_REQUEST; a second end answers what the first recorded', async () => {
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'go' });
    await expect(engine.execEnd({ ...s, execId: 'x_unknown' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'touch new.txt' });
    sh('touch new.txt');
    const first = await engine.execEnd({ ...s, execId: execId! });
    expect(first.changed).toEqual([ws('new.txt')]);
    expect(await engine.execEnd({ ...s, execId: execId! })).toEqual(first);
    await engine.turnEnd(s);
  });
});

describe('shell commands of two sessions at once', () => {
  it('are attributed to both turns, and said so', async () => {
    const other = who('s2');
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one' });
    await engine.input({ ...other, platform: 'webui', sessionType: 'chat', content: 'two' });
    const a = await engine.exec({ ...s, tool: 'Bash', command: 'edit a' });
    const b = await engine.exec({ ...other, tool: 'Bash', command: 'edit b' });
    sh('echo from-one >> src/a.ts; echo from-two >> src/b.ts');
    const endA = await engine.execEnd({ ...s, execId: a.execId! });
    const endB = await engine.execEnd({ ...other, execId: b.execId! });
    expect(endA.changed.sort()).toEqual([ws('src/a.ts'), ws('src/b.ts')]);
    expect(endA.skipped).toEqual(expect.arrayContaining([{ uri: ws('src/a.ts'), reason: 'concurrent' }]));
    expect(endB.skipped.map((x) => x.reason)).toContain('concurrent');
    await engine.turnEnd(s);
    await engine.turnEnd(other);
  });
});
