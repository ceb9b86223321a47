// The workspace index built in the background, on real temp trees: a command after it reads only
// what changed; one during it waits and is exact; a stop part-way is resumed, not restarted; an
// unreadable root is said, and the first command then scans in full; close stops it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineFs, type FsOpName } from '../paths/fs.js';
import { makeSandbox, plant, who, ws } from '../../testkit/engine-harness.js';

const s = who();
const chat = { ...s, platform: 'webui', sessionType: 'chat', content: 'run commands' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than a timestamp's racy window (workspace-index.ts): files older than it are trusted by their stat. */
const PAST_RACY = () => pause(2_100);

function tree(files: number, size = 10): Record<string, string> {
  const spec: Record<string, string> = {};
  for (let i = 0; i < files; i++) spec[`d${i % 7}/f${i}.txt`] = `${i}:`.padEnd(size, 'x');
  return spec;
}

/** An EngineFs that counts the files it opens for reading, optionally slowing each read. */
function countingFs(delayMs = 0) {
  const reads: string[] = [];
  const fs = new EngineFs({
    beforeOp: async (op: FsOpName, target: string) => {
      if (op !== 'read' && op !== 'readFile') return;
      reads.push(target);
      if (delayMs > 0) await pause(delayMs);
    },
  });
  return { fs, reads };
}

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await pause(5);
  }
}

describe('the index built in the background', () => {
  it('makes the index whole, and a command after it reads only the file that changed', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, tree(60));
    await PAST_RACY();
    const { fs, reads } = countingFs();
    const engine = await sb.open({ fs } as never);
    expect(engine.indexStatus().state).toBe('partial');

    const built = await engine.buildIndex();
    expect(built).toMatchObject({ state: 'whole', filesFound: 60, filesIndexed: 60, bytesStored: 600, percent: 100 });
    expect(built.durationMs).toBeGreaterThanOrEqual(0);
    expect(reads).toHaveLength(60);
    expect(engine.storeStats().index.state).toBe('whole');

    await writeFile(join(sb.workspace, 'd3/f3.txt'), 'changed before the command\n');
    reads.length = 0;
    await engine.input(chat);
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    expect(reads).toEqual([join(sb.workspace, 'd3/f3.txt')]);

    await writeFile(join(sb.workspace, 'd1/f1.txt'), 'by the command\n');
    const end = await engine.execEnd({ ...s, execId: execId! });
    expect(end.changed).toEqual([ws('d1/f1.txt')]);
    // A second build has nothing to do.
    reads.length = 0;
    expect((await engine.buildIndex()).state).toBe('whole');
    expect(reads).toEqual([]);
  });

  it('answers other requests during the build; a command waits for it, then is exact', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, tree(40));
    const { fs } = countingFs(10);
    const engine = await sb.open({ fs } as never);
    let buildDone = false;
    const building = engine.buildIndex().then((status) => {
      buildDone = true;
      return status;
    });
    await until(() => engine.indexStatus().filesIndexed > 0);
    const during = engine.indexStatus();
    expect(during).toMatchObject({ state: 'building', filesFound: 40 });
    expect(during.percent).toBeLessThan(100);

    // A prompt is not held up by the build.
    await engine.input(chat);
    expect(buildDone).toBe(false);

    const exec = engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    const { execId } = await exec;
    expect(buildDone).toBe(true);
    expect((await building).state).toBe('whole');

    await writeFile(join(sb.workspace, 'd2/f9.txt'), 'by the command\n');
    await writeFile(join(sb.workspace, 'new.txt'), 'new\n');
    const end = await engine.execEnd({ ...s, execId: execId! });
    expect(end.changed.sort()).toEqual([ws('d2/f9.txt'), ws('new.txt')]);
    await engine.turnEnd(s);
  });

  it('stops when the engine closes, and the next build resumes from what it stored', async () => {
    const sb = await makeSandbox();
    // Big enough files that the build stores part of what it read (every 1 MiB) before it is stopped.
    await plant(sb.workspace, tree(24, 256 << 10));
    await PAST_RACY();
    const first = countingFs(15);
    let engine = await sb.open({ fs: first.fs } as never);
    const building = engine.buildIndex();
    await until(() => engine.indexStatus().filesIndexed >= 14);
    const closing = Date.now();
    await engine.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
    const stopped = await building;
    expect(stopped.state).toBe('partial');
    expect(stopped.filesIndexed).toBeLessThan(24);

    const second = countingFs();
    engine = await sb.open({ fs: second.fs } as never);
    expect(engine.indexStatus().state).toBe('partial');
    const resumed = await engine.buildIndex();
    expect(resumed).toMatchObject({ state: 'whole', resumed: true, filesIndexed: 24 });
    // What the stopped build stored (its 1 MiB parts, 4 files each) is not read again.
    expect(second.reads.length).toBeLessThanOrEqual(24 - 8);
    expect(second.reads.length + first.reads.length).toBeLessThanOrEqual(24 + 8);
  });

  it('says a root it cannot list, and the first command then scans in full', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, tree(10));
    let blocked = true;
    const fs = new EngineFs({
      beforeOp: (op, target) => {
        if (blocked && op === 'readdir' && target === sb.workspace)
          throw Object.assign(new Error(`EACCES: permission denied, scandir '${target}'`), {
            code: 'EACCES',
            path: target,
          });
      },
    });
    const engine = await sb.open({ fs } as never);
    const failed = await engine.buildIndex();
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/permission denied/);
    expect(engine.storeStats().index).toMatchObject({ state: 'failed' });

    blocked = false;
    await engine.input(chat);
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    expect(engine.indexStatus().state).toBe('whole');
    await writeFile(join(sb.workspace, 'd0/f0.txt'), 'by the command\n');
    expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([ws('d0/f0.txt')]);
  });

  it('builds past a folder it cannot list, naming it unreadable', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { ...tree(10), 'locked/secret.txt': 'x' });
    const fs = new EngineFs({
      beforeOp: (op, target) => {
        if (op === 'readdir' && target === join(sb.workspace, 'locked'))
          throw Object.assign(new Error(`EACCES: ${target}`), { code: 'EACCES', path: target });
      },
    });
    const engine = await sb.open({ fs } as never);
    expect(await engine.buildIndex()).toMatchObject({ state: 'whole', filesIndexed: 10 });
  });
});
