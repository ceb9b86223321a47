// The watcher runs on a thread of its own: the service's loop makes no watch and reads no event
// (a storm in one workspace cannot hold it), the commands' lists stay exact, and the thread's
// watches end with the engine, never keeping the process alive.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { makeSandbox, plant, who, ws } from '../../../testkit/engine-harness.js';
import { fsTreeWatcher } from './fs-watcher.js';
import { kernelWatchedInodes } from './kernel-watches.js';
import { ThreadTreeWatcher } from './watcher-thread.js';

// Every fs.watch made by this test's own thread (the service's loop), counted.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const watch = vi.fn(real.watch);
  return { ...real, watch, default: { ...real, watch } };
});

const s = who();

describe('the watcher thread', () => {
  it("makes every watch off the service's loop, and the commands' lists stay exact", async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'a.txt': 'a\n', 'src/deep/b.txt': 'b\n' });
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one' });
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'make and edit' });
    await mkdir(join(sb.workspace, 'src/new'));
    await writeFile(join(sb.workspace, 'src/new/c.txt'), 'c\n');
    await writeFile(join(sb.workspace, 'src/deep/b.txt'), 'B\n');
    const { changed } = await engine.execEnd({ ...s, execId: execId! });
    await engine.turnEnd(s);
    expect(changed).toEqual([ws('src/deep/b.txt'), ws('src/new'), ws('src/new/c.txt')]);
    expect(engine.watcherStatus()).toEqual({ state: 'watching', misses: 0 });
    // The folders are watched (the kernel lists them for this process), from the other thread.
    expect(kernelWatchedInodes()?.has((await stat(join(sb.workspace, 'src/deep'))).ino)).toBe(true);
    expect(vi.mocked(fs.watch)).not.toHaveBeenCalled();
  });

  it('closes its watches with the engine', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'src/b.txt': 'b\n' });
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one' });
    await engine.turnEnd(s);
    const src = (await stat(join(sb.workspace, 'src'))).ino;
    expect(kernelWatchedInodes()?.has(src)).toBe(true);
    await engine.close();
    expect(kernelWatchedInodes()?.has(src) ?? false).toBe(false);
  });

  it('keeps no process alive: a script with an engine still open ends on its own', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'a.txt': 'a\n' });
    const engineIndex = fileURLToPath(new URL('../../index.ts', import.meta.url));
    const script = join(sb.base, 'open-and-leave.mts');
    await fs.promises.writeFile(
      script,
      `import { fsTreeWatcher, openEngine } from ${JSON.stringify(engineIndex)};
const engine = await openEngine({ workspace: ${JSON.stringify(sb.workspace)}, dataDir: ${JSON.stringify(join(sb.base, 'data2'))}, watcher: fsTreeWatcher });
await engine.input({ sessionId: 's', platform: 'webui', sessionType: 'chat', content: 'x' });
const { execId } = await engine.exec({ sessionId: 's', tool: 'Bash', command: 'edit' });
await (await import('node:fs/promises')).writeFile(${JSON.stringify(join(sb.workspace, 'a.txt'))}, 'A\\n');
console.log(JSON.stringify((await engine.execEnd({ sessionId: 's', execId })).changed));
`,
    );
    const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
    // Generous: a loaded machine stalls; a thread keeping it alive would hold it for good.
    const run = spawnSync(tsx, [script], { encoding: 'utf8', timeout: 90_000 });
    expect(run.error, run.stderr).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual([ws('a.txt')]);
  }, 120_000);
});

describe('one workspace on the watcher thread', () => {
  it("that cannot start fails its own watcher only: another's keeps watching on the same thread", async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'a.txt': 'a\n' });
    const engine = await sb.open({ watcher: fsTreeWatcher } as never);
    const broken = new ThreadTreeWatcher({
      roots: [sb.outside],
      barrierDir: join(sb.base, 'broken-barrier'),
      skip: () => false,
      log: () => undefined,
      rules: { roots: [], exclude: [{ source: '(', flags: '' }] },
    });
    expect(await broken.take()).toBeNull();
    expect(broken.unavailable()).toMatch(/could not start/);
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one' });
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    await writeFile(join(sb.workspace, 'a.txt'), 'A\n');
    expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([ws('a.txt')]);
    expect(engine.watcherStatus()).toEqual({ state: 'watching', misses: 0 });
    await broken.close();
  });
});

describe('a watcher closed while its take is awaited', () => {
  it('answers that take (null) instead of leaving it waiting for good', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'a.txt': 'a\n' });
    const watcher = new ThreadTreeWatcher({
      roots: [sb.workspace],
      barrierDir: join(sb.base, 'barrier'),
      skip: () => false,
      log: () => undefined,
      rules: { roots: [{ real: sb.workspace, engineData: [] }], exclude: [] },
    });
    await watcher.take();
    // The barrier folder made anew: the take's barrier event never comes (it fails after 5 s),
    // so the thread answers the close first and the take's answer then finds no client.
    const barrier = join(sb.base, 'barrier');
    fs.rmSync(barrier, { recursive: true, force: true });
    fs.mkdirSync(barrier);
    const taken = watcher.take();
    await watcher.close();
    const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 30_000).unref());
    expect(await Promise.race([taken, stuck])).not.toBe('stuck');
  }, 60_000);
});
