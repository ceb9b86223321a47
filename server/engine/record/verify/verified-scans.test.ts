// The engine's full scans on an index large enough to be verified by stat on threads: what a
// command and a process it left running changed is attributed and rolled back as after a walk.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeSandbox, who, ws } from '../../../testkit/engine-harness.js';
import { statPool } from './stat-pool.js';

const s = who();
const FILES = 2_100;

describe('full scans verified by stat', () => {
  it('attributes what a command changed, and what changed after it at the turn end, and rolls it all back', async () => {
    const sb = await makeSandbox();
    for (let d = 0; d < 21; d++) {
      await mkdir(join(sb.workspace, `d${d}`));
      await Promise.all(
        Array.from({ length: FILES / 21 }, (_, f) =>
          writeFile(join(sb.workspace, `d${d}`, `f${f}.txt`), `${d}/${f}\n`),
        ),
      );
    }
    const engine = await sb.open();
    const before = await sb.tree();
    const run = vi.spyOn(statPool, 'run');
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'run commands' });
    // The first before scan has no whole index to verify: it walks the tree.
    const first = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    expect(run).not.toHaveBeenCalled();
    await writeFile(join(sb.workspace, 'd0/f0.txt'), 'changed\n');
    const end = await engine.execEnd({ ...s, execId: first.execId! });
    // Its after scan, against a baseline no other scan moved: verified.
    expect(run).toHaveBeenCalledTimes(1);
    expect(end.changed).toEqual([ws('d0/f0.txt')]);

    // What the command left running does after its end: found by the turn end's full scan.
    await rm(join(sb.workspace, 'd1/f1.txt'));
    await rename(join(sb.workspace, 'd2'), join(sb.workspace, 'moved'));
    await mkdir(join(sb.workspace, 'd3/new'));
    await writeFile(join(sb.workspace, 'd3/new/born.txt'), 'born\n');
    await engine.turnEnd(s);
    expect(run).toHaveBeenCalledTimes(2);
    const [command] = engine.getManifest(turnId!).turn.execCommands;
    expect(command!.changed).toEqual(
      expect.arrayContaining([
        ws('d0/f0.txt'),
        ws('d1/f1.txt'),
        ws('d2'),
        ws('moved'),
        ws('d3/new'),
        ws('d3/new/born.txt'),
      ]),
    );

    await engine.rollback(turnId!);
    expect(await sb.tree()).toEqual(before);
  }, 60_000);
});
