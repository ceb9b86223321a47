// A folder a command removes and makes again (git does, and ext4 hands the new folder the inode
// number just freed), and a workspace root removed and made again (a re-clone): with the real
// watcher, each command's own list of what it changed is exact, and undoing the last step undoes
// that step only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { appendFile, lstat, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSandbox, plant, who, ws } from '../../../testkit/engine-harness.js';
import type { Engine } from '../../api.js';
import { fsTreeWatcher } from './fs-watcher.js';
import { faultyFactory } from './watch-faults.testutil.js';

const s = who();

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();
}

/** One command of the current turn: exec, the change, exec-end; what it changed. */
async function command(engine: Engine, title: string, change: () => Promise<void> | void): Promise<string[]> {
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: title });
  await change();
  return (await engine.execEnd({ ...s, execId: execId! })).changed;
}

describe('the watcher follows replaced folders and a replaced root', () => {
  it('a folder git removes and re-creates (its inode number reused) is watched again', async () => {
    const sb = await makeSandbox();
    const root = sb.workspace;
    await plant(root, { 'top.txt': 'top\n', 'd1/a.txt': 'a\n', '.gitignore': '' });
    git(root, 'init', '-q');
    git(root, 'add', 'd1', 'top.txt');
    git(root, 'commit', '-qm', 'a');
    const treeA = git(root, 'rev-parse', 'HEAD^{tree}');
    git(root, 'rm', '-q', 'd1/a.txt');
    await plant(root, { 'd1/b.txt': 'b\n' });
    git(root, 'add', 'd1/b.txt');
    git(root, 'commit', '-qm', 'b');
    const treeB = git(root, 'rev-parse', 'HEAD^{tree}');
    // The work tree back at A: d1 holds a.txt only.
    git(root, 'read-tree', '-m', '-u', treeB, treeA);
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    let at = 'a';
    let reused = 0;
    for (let round = 0; round < 40 && reused < 3; round++) {
      const { turnId } = await engine.input({
        ...s,
        platform: 'webui',
        sessionType: 'chat',
        content: `round ${round}`,
      });
      const before = (await lstat(join(root, 'd1'))).ino;
      const [from, to, gone, made] = at === 'a' ? [treeA, treeB, 'a', 'b'] : [treeB, treeA, 'b', 'a'];
      const first = await command(engine, 'git read-tree', () => void git(root, 'read-tree', '-m', '-u', from, to));
      at = made;
      if ((await lstat(join(root, 'd1'))).ino === before) reused++;
      expect(first.sort(), `round ${round}: the checkout's own changes`).toEqual(
        [ws(`d1/${gone}.txt`), ws(`d1/${made}.txt`)].sort(),
      );
      const second = await command(engine, 'echo more >> top.txt', () => appendFile(join(root, 'top.txt'), 'more\n'));
      expect(second, `round ${round}: the append's own change`).toEqual([ws('top.txt')]);
      await engine.turnEnd(s);
      const steps = engine.steps(turnId!);
      expect(
        steps.map((st) => st.paths.length),
        `round ${round}: two steps`,
      ).toEqual([2, 1]);
      if (reused === 3 || round === 39) {
        // Undoing the append alone leaves the checkout's work in place.
        const result = await engine.rollback(turnId!, { steps: [2], force: true });
        expect(result.errors).toEqual([]);
        expect(await readFile(join(root, `d1/${made}.txt`), 'utf8')).toBe(`${made}\n`);
      }
    }
    // The case this test is about happened (ext4 reuses the freed inode number at once).
    expect(reused).toBeGreaterThan(0);
    await engine.close();
  }, 120_000);

  it('a root removed and made again is watched again: the next command lists its change', async () => {
    const sb = await makeSandbox();
    const root = sb.workspace;
    await plant(root, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    const turn = async (title: string, change: () => Promise<void>) => {
      const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: title });
      const first = await command(engine, title, change);
      const second = await command(engine, 'echo more >> a.txt', () => appendFile(join(root, 'a.txt'), 'more\n'));
      await engine.turnEnd(s);
      return { turnId: turnId!, first, second };
    };
    await turn('warm', async () => undefined);
    // Between turns, as a re-clone does.
    await rm(root, { recursive: true, force: true });
    await mkdir(root);
    await plant(root, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    for (let i = 0; i < 3; i++) {
      const got = await turn(`edit ${i}`, () => appendFile(join(root, 'src/b.txt'), `${i}\n`));
      expect(got.first, `turn ${i}: the edit's own change`).toEqual([ws('src/b.txt')]);
      expect(got.second, `turn ${i}: the append's own change`).toEqual([ws('a.txt')]);
      expect(engine.steps(got.turnId).length).toBe(2);
    }
    expect(engine.watcherStatus().state).toBe('watching');
    await engine.close();
  }, 60_000);

  it('says degraded while the root is gone, and watching (the kernel holding every watch) once it is back', async () => {
    const sb = await makeSandbox();
    const root = sb.workspace;
    await plant(root, { 'a.txt': 'a\n', 'src/deep/b.txt': 'b\n' });
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    expect(engine.watcherStatus()).toEqual({ state: 'watching', misses: 0 });
    // Removed and asked at once, before any event is read: only the kernel's own list tells it.
    rmSync(join(root, 'src'), { recursive: true });
    const afterRemoval = engine.watcherStatus();
    expect(afterRemoval.state, JSON.stringify(afterRemoval)).toBe('degraded');
    expect(afterRemoval.reason).toMatch(/not watched by the kernel/);
    rmSync(root, { recursive: true });
    const gone = engine.watcherStatus();
    expect(gone.state).toBe('degraded');
    expect(gone.reason).toMatch(/is gone/);
    await mkdir(root);
    await plant(root, { 'a.txt': 'a\n' });
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'back' });
    const changed = await command(engine, 'make b', () => plant(root, { 'src/b.txt': 'b\n' }));
    expect(changed).toEqual([ws('src'), ws('src/b.txt')]);
    await engine.turnEnd(s);
    expect(engine.watcherStatus().state).toBe('watching');
  }, 60_000);

  it('counts a change no event named as a miss, logs its path, and watches its folder afresh', async () => {
    const sb = await makeSandbox();
    const root = sb.workspace;
    await plant(root, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    const factory = faultyFactory({ drop: (p) => p.abs.endsWith('unseen.txt') });
    const lines: string[] = [];
    const engine = await sb.open({ watcher: factory.make, log: (line: string) => lines.push(line) } as never);
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one' });
    const first = await command(engine, 'make unseen', () => plant(root, { 'src/unseen.txt': 'u\n' }));
    expect(first).toEqual([]);
    await command(engine, 'edit a', () => appendFile(join(root, 'a.txt'), 'more\n'));
    await engine.turnEnd(s);
    expect(engine.watcherStatus().misses).toBe(1);
    expect(lines.filter((l) => l.startsWith('watcher miss:'))).toEqual([
      expect.stringMatching(/^watcher miss: workspace:\/src\/unseen\.txt created, found by the turn's end scan/),
    ]);
    // The same again, with nothing dropped: no miss.
    factory.made[0]!.faults = {};
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'two' });
    expect(await command(engine, 'make seen', () => plant(root, { 'src/seen.txt': 's\n' }))).toEqual([
      ws('src/seen.txt'),
    ]);
    await engine.turnEnd(s);
    expect(engine.watcherStatus().misses).toBe(1);
  }, 60_000);

  // Mounting needs the privilege to (root, as on this CI's containers); elsewhere it cannot be shown.
  it.skipIf(!canMount())(
    'a folder mounted over is degraded, watched afresh, and the next command lists what changed in it',
    async () => {
      const sb = await makeSandbox();
      const root = sb.workspace;
      await plant(root, { 'a.txt': 'a\n', 'mnt/old.txt': 'old\n' });
      await plant(sb.outside, { 'disk/new.txt': 'new\n' });
      const engine = await sb.open({ watcher: fsTreeWatcher } as never);
      try {
        await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'mount' });
        const mounted = await command(engine, 'mount --bind', () => {
          execFileSync('mount', ['--bind', join(sb.outside, 'disk'), join(root, 'mnt')]);
        });
        // No event tells a mount; the status checks every watched folder's path.
        const status = engine.watcherStatus();
        expect(status.state, JSON.stringify(status)).toBe('degraded');
        expect(status.reason).toMatch(/mounted over or replaced/);
        const edit = await command(engine, 'edit in the mount', () => appendFile(join(root, 'mnt/new.txt'), 'more\n'));
        expect(edit).toContain(ws('mnt/new.txt'));
        expect(mounted.length + edit.length).toBeGreaterThan(0);
        expect(engine.watcherStatus().state).toBe('watching');
        await engine.turnEnd(s);
      } finally {
        // Lazily, the engine closed first: nothing may keep the mount behind the test.
        await engine.close();
        execFileSync('umount', ['-l', join(root, 'mnt')]);
      }
    },
    60_000,
  );
});

function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'turnback-mount-probe-'));
  try {
    execFileSync('mount', ['--bind', probe, probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
