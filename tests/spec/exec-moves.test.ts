// A move or rename a shell command makes (mv, git mv, a script's rename, a copy then delete of
// the same content) is recorded as one move, as a storage rename is: the path it arrived at is
// one row with `from`, counted as one rename, and a rollback moves it back, to the exact start tree.
import { execFileSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import type { FileChange } from '../../server/protocol.js';
import { makeSandbox, plant, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { snapshotTree, type Tree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, {
    'a.txt': 'alpha\nbeta\ngamma\n',
    'other.txt': 'other\n',
    'lib/x/one.txt': 'one\n',
    'lib/x/deep/two.txt': 'two\n',
    'lib/x/run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
  });
  engine = await sandbox.open();
});

function sh(line: string): void {
  execFileSync('/bin/bash', ['-c', line], { cwd: sandbox.workspace, stdio: 'pipe' });
}

/** One turn of one command, run as a host runs it (before scan, command, after scan). */
async function turnOf(line: string, setup?: string): Promise<string> {
  if (setup) sh(setup);
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: line });
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: line });
  sh(line);
  await engine.execEnd({ ...s, execId: execId! });
  await engine.turnEnd(s);
  return turnId!;
}

/** The rows the console shows: a move's origin is folded into the row of where it went. */
function rows(turnId: string): [string, string, string?][] {
  const files = engine.getManifest(turnId).files;
  const origins = new Set(files.filter((f) => f.from).map((f) => f.from));
  return files
    .filter((f) => !(origins.has(f.uri) && f.after === null))
    .map((f: FileChange) => (f.from ? [f.uri, f.change, f.from] : [f.uri, f.change]));
}

async function rollsBackExactly(turnId: string, moved: { from: string; to: string }[]): Promise<void> {
  const end = await tree();
  const result = await engine.rollback(turnId);
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
  expect(result.movedBack).toEqual(expect.arrayContaining(moved));
  assertSameTree(start, await tree());
  const undo = await engine.rollback(result.rollbackTurnId!);
  expect(undo.ok).toBe(true);
  assertSameTree(end, await tree());
}

let start: Tree;
/** The workspace without git's own folder, which scans and rollbacks leave to git. */
const tree = () => snapshotTree(sandbox.workspace, { ignore: ['.git'] });

describe('a move a shell command makes', () => {
  it('mv of a file in its folder is one renamed row, one rename, no lines, and goes back by rename (same inode)', async () => {
    start = await tree();
    const inode = (await stat(join(sandbox.workspace, 'a.txt'))).ino;
    const turnId = await turnOf('mv a.txt b.txt');
    expect(rows(turnId)).toEqual([[ws('b.txt'), 'renamed', ws('a.txt')]]);
    const { turn, entries } = engine.getManifest(turnId);
    expect(turn).toMatchObject({ renameCount: 1, lines: { added: 0, removed: 0 } });
    // The console counts a turn's files as fileCount − renameCount (both ends of a move are changed paths): one.
    expect(turn.fileCount - turn.renameCount!).toBe(1);
    const diff = await engine.diff(turnId, ws('b.txt'));
    expect(diff).toMatchObject({
      from: ws('a.txt'),
      before: { exists: true, text: 'alpha\nbeta\ngamma\n' },
      after: { exists: true, text: 'alpha\nbeta\ngamma\n' },
    });
    expect(entries).toEqual([
      expect.objectContaining({ op: 'rename', uri: ws('a.txt'), to: ws('b.txt'), execId: turn.execCommands[0].execId }),
    ]);
    await rollsBackExactly(turnId, [{ from: ws('b.txt'), to: ws('a.txt') }]);
    expect((await stat(join(sandbox.workspace, 'b.txt'))).ino).toBe(inode);
  });

  it('mv into another folder is one moved row', async () => {
    start = await tree();
    const turnId = await turnOf('mkdir -p new/place && mv a.txt new/place/a.txt');
    expect(rows(turnId)).toEqual(expect.arrayContaining([[ws('new/place/a.txt'), 'moved', ws('a.txt')]]));
    expect(rows(turnId).filter(([, change]) => change !== 'dir-created')).toHaveLength(1);
    expect(engine.getManifest(turnId).turn.renameCount).toBe(1);
    await rollsBackExactly(turnId, [{ from: ws('new/place/a.txt'), to: ws('a.txt') }]);
  });

  it('mv of a folder: the folder and every path under it, each one row with from', async () => {
    start = await tree();
    const turnId = await turnOf('mv lib/x lib/y');
    expect(rows(turnId).sort()).toEqual(
      [
        [ws('lib/y'), 'renamed', ws('lib/x')],
        [ws('lib/y/deep'), 'renamed', ws('lib/x/deep')],
        [ws('lib/y/deep/two.txt'), 'renamed', ws('lib/x/deep/two.txt')],
        [ws('lib/y/one.txt'), 'renamed', ws('lib/x/one.txt')],
        [ws('lib/y/run.sh'), 'renamed', ws('lib/x/run.sh')],
      ].sort(),
    );
    expect(engine.getManifest(turnId).turn).toMatchObject({ renameCount: 3, fileCount: 6 });
    await rollsBackExactly(turnId, [
      { from: ws('lib/y/one.txt'), to: ws('lib/x/one.txt') },
      { from: ws('lib/y/deep/two.txt'), to: ws('lib/x/deep/two.txt') },
    ]);
  });

  it('git mv is one renamed row', async () => {
    const git = (args: string) => `git -c user.email=t@t -c user.name=t ${args}`;
    const setup = `git init -q && ${git('add a.txt other.txt')} && ${git('commit -q -m start')}`;
    sh(setup);
    start = await tree();
    const turnId = await turnOf(git('mv a.txt renamed.txt'));
    expect(rows(turnId)).toEqual([[ws('renamed.txt'), 'renamed', ws('a.txt')]]);
    await rollsBackExactly(turnId, [{ from: ws('renamed.txt'), to: ws('a.txt') }]);
  });

  it("a script's rename is one renamed row", async () => {
    start = await tree();
    const turnId = await turnOf(`${process.execPath} -e "require('fs').renameSync('a.txt', 'by-script.txt')"`);
    expect(rows(turnId)).toEqual([[ws('by-script.txt'), 'renamed', ws('a.txt')]]);
    await rollsBackExactly(turnId, [{ from: ws('by-script.txt'), to: ws('a.txt') }]);
  });

  it('a copy then delete of the same content (another inode) is one move', async () => {
    start = await tree();
    const turnId = await turnOf('cp a.txt copied.txt && rm a.txt');
    expect(rows(turnId)).toEqual([[ws('copied.txt'), 'renamed', ws('a.txt')]]);
    await rollsBackExactly(turnId, []);
  });

  it('mv onto an existing file is recorded as a storage rename onto it is, and both come back', async () => {
    start = await tree();
    const turnId = await turnOf('mv a.txt other.txt');
    expect(engine.getManifest(turnId).entries).toEqual([
      expect.objectContaining({ op: 'rename', uri: ws('a.txt'), to: ws('other.txt') }),
    ]);
    expect(rows(turnId).sort()).toEqual([
      [ws('a.txt'), 'deleted'],
      [ws('other.txt'), 'modified'],
    ]);
    // As for a storage rename onto a file: the replaced file's content is placed back, a.txt's restored.
    await rollsBackExactly(turnId, []);
  });

  it('a delete and an unrelated new file stay a delete and a create', async () => {
    start = await tree();
    const turnId = await turnOf("rm a.txt && printf 'fresh\\n' > b.txt");
    expect(rows(turnId).sort()).toEqual([
      [ws('a.txt'), 'deleted'],
      [ws('b.txt'), 'created'],
    ]);
    expect(engine.getManifest(turnId).turn.renameCount).toBe(0);
    await rollsBackExactly(turnId, []);
  });
});

describe('any sequence of moves, copies, deletes and writes in one command', () => {
  it('rolls back to the exact start tree, and its undo to the exact end tree', async () => {
    const names = ['a.txt', 'other.txt', 'lib/x/one.txt', 'lib/x', 'lib/x/deep', 'n1', 'n2.txt', 'lib/n3'];
    const step = fc.oneof(
      fc.tuple(fc.constant('mv'), fc.constantFrom(...names), fc.constantFrom(...names)),
      fc.tuple(fc.constant('cp'), fc.constantFrom(...names), fc.constantFrom(...names)),
      fc.tuple(fc.constant('rm'), fc.constantFrom(...names), fc.constant('')),
      fc.tuple(fc.constant('write'), fc.constantFrom(...names), fc.constantFrom('x', 'alpha\nbeta\ngamma\n')),
    );
    const line = (steps: [string, string, string][]) =>
      steps
        .map(([op, a, b]) => {
          if (op === 'mv') return `mv -T ${a} ${b} 2>/dev/null`;
          if (op === 'cp') return `cp -a ${a} ${b} 2>/dev/null`;
          if (op === 'rm') return `rm -rf ${a}`;
          return `printf '%s' '${b}' > ${a} 2>/dev/null`;
        })
        .join('; ') + '; true';
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        await engine.close();
        sandbox = await makeSandbox();
        await plant(sandbox.workspace, {
          'a.txt': 'alpha\nbeta\ngamma\n',
          'other.txt': 'other\n',
          'lib/x/one.txt': 'one\n',
          'lib/x/deep/two.txt': 'two\n',
        });
        engine = await sandbox.open();
        start = await tree();
        const turnId = await turnOf(line(steps));
        if (engine.getManifest(turnId).files.length === 0) {
          assertSameTree(start, await tree());
          return;
        }
        await rollsBackExactly(turnId, []);
      }),
      { numRuns: 25 },
    );
    // 25 stores opened and commands run: seconds here, and a stalled shared machine stretches them.
  }, 120_000);
});
