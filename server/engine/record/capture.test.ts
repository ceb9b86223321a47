// A recursive delete or move records every path below the folder first (walkTree). A folder of
// the tree swapped for a symlink to outside while it is walked is never entered and the
// operation is refused (BAD_URI) before anything changes; the engine's own data is never listed.
import { lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineFs } from '../paths/fs.js';
import { makeSandbox, plant, who, ws } from '../../testkit/engine-harness.js';

const s = who();

async function stage(swapAt: (op: string, target: string, sub: string) => boolean) {
  const sb = await makeSandbox();
  await plant(sb.workspace, { 'big/a.txt': 'a\n', 'big/sub/x.txt': 'x\n', 'big/sub/deeper/y.txt': 'y\n' });
  await writeFile(join(sb.outside, 'x.txt'), 'outside\n');
  const sub = join(sb.workspace, 'big', 'sub');
  let swapped = false;
  const fs = new EngineFs({
    beforeOp: async (op, target) => {
      if (swapped || !swapAt(op, target, sub)) return;
      swapped = true;
      await rename(sub, join(sb.workspace, 'sub-real'));
      await symlink(sb.outside, sub);
    },
  });
  const engine = await sb.open({ fs } as never);
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'delete' });
  return { sb, engine, turnId: turnId!, sub, wasSwapped: () => swapped };
}

describe('walkTree under a folder swapped for a symlink', () => {
  for (const [when, swapAt] of [
    ['as the folder is listed', (op: string, target: string, sub: string) => op === 'readdir' && target === sub],
    [
      'as a path below it is looked at',
      (op: string, target: string, sub: string) => op === 'lstat' && target === join(sub, 'deeper'),
    ],
  ] as const) {
    it(`refuses a recursive delete with BAD_URI ${when}, and touches nothing`, async () => {
      const { sb, engine, turnId, sub, wasSwapped } = await stage(swapAt);
      await expect(engine.storage.delete(ws('big'), { ...s, recursive: true })).rejects.toMatchObject({
        code: 'BAD_URI',
      });
      expect(wasSwapped()).toBe(true);
      expect(engine.getManifest(turnId).entries).toEqual([]);
      expect((await lstat(sub)).isSymbolicLink()).toBe(true);
      expect(await readdir(sb.outside)).toEqual(['x.txt']);
      expect(await readFile(join(sb.outside, 'x.txt'), 'utf8')).toBe('outside\n');
      expect(await readFile(join(sb.workspace, 'sub-real', 'deeper', 'y.txt'), 'utf8')).toBe('y\n');
      expect(await readFile(join(sb.workspace, 'big', 'a.txt'), 'utf8')).toBe('a\n');
    });
  }

  it('refuses a recursive move with BAD_URI the same way', async () => {
    const { sb, engine, turnId } = await stage((op, target, sub) => op === 'readdir' && target === sub);
    await expect(engine.storage.move(ws('big'), ws('elsewhere'), s)).rejects.toMatchObject({ code: 'BAD_URI' });
    expect(engine.getManifest(turnId).entries).toEqual([]);
    expect(await readdir(sb.workspace)).toEqual(['big', 'sub-real']);
    expect(await readdir(sb.outside)).toEqual(['x.txt']);
  });
});

describe('walkTree', () => {
  it('records every path below a deleted folder, deepest first, and never lists the engine data inside it', async () => {
    const sb = await makeSandbox({ dataInsideWorkspace: 'big/.turnback' });
    await plant(sb.workspace, {
      'big/a.txt': 'a\n',
      'big/sub/x.txt': 'x\n',
      'big/sub/deeper/y.txt': 'y\n',
      'big/z/empty/.keep': '',
    });
    const engine = await sb.open();
    await mkdir(join(sb.workspace, 'big', '.turnback', 'files', 'planted'), { recursive: true });
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'delete' });
    await engine.storage.delete(ws('big/sub'), { ...s, recursive: true });
    expect(engine.getManifest(turnId!).entries.map((e) => [e.op, e.uri])).toEqual([
      ['delete', ws('big/sub/x.txt')],
      ['delete', ws('big/sub/deeper/y.txt')],
      ['delete', ws('big/sub/deeper')],
      ['delete', ws('big/sub')],
    ]);
    // The data dir inside the folder is what holds the engine's store: refused whole.
    await expect(engine.storage.delete(ws('big'), { ...s, recursive: true })).rejects.toMatchObject({
      code: 'BAD_URI',
    });
  });
});
