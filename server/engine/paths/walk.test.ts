// The tree walker on a real folder: names in order, the engine's data never listed, excluded
// names left out unlooked at unless asked for, a visitor's stop ending the whole walk, and a
// folder swapped for a link between its lstat and its opening never entered.
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkOnPathError } from '../errors.js';
import { compileGlobs, RootExclusion } from './exclude.js';
import { EngineFs } from './fs.js';
import type { Root } from './roots.js';
import { STOP, type TreeVisitor, walkTree } from './walk.js';

let base: string;
let ws: string;
let fs: EngineFs;
let root: Root;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'turnback-walk-'));
  ws = join(base, 'ws');
  await mkdir(join(ws, 'src', 'lib'), { recursive: true });
  await mkdir(join(ws, 'node_modules', 'dep'), { recursive: true });
  await mkdir(join(ws, '.turnback', 'store'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret.txt'), 'outside\n');
  for (const f of ['b.txt', 'a.txt', 'src/z.ts', 'src/lib/m.ts', 'node_modules/dep/i.js', '.turnback/store/x'])
    await writeFile(join(ws, f), f);
  fs = new EngineFs();
  fs.addRoot(ws);
  root = { name: 'ws', real: ws } as Root;
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const exclusion = () => new RootExclusion(compileGlobs(['node_modules/**']), [join(ws, '.turnback')]);

/** Walks the root, entering every folder, and lists what the visitor was told. */
async function walkAll(overrides: Partial<TreeVisitor<null>> = {}): Promise<{ seen: string[]; complete: boolean }> {
  const seen: string[] = [];
  const dir = fs.openScanDir(ws);
  try {
    const complete = await walkTree(dir, {
      root,
      rel: '',
      frame: null,
      exclusion: exclusion(),
      visitor: {
        entry: (at, descend) => {
          seen.push(at.excluded ? `${at.rel} (excluded)` : at.rel);
          if (at.stats?.isDirectory() && !at.excluded) return descend(at, null).then(() => undefined);
        },
        ...overrides,
      },
    });
    return { seen, complete };
  } finally {
    dir.close();
  }
}

describe('the tree walker', () => {
  it('visits every name in name order, depth first, without the engine data or excluded paths', async () => {
    const { seen, complete } = await walkAll();
    expect(complete).toBe(true);
    expect(seen).toEqual(['a.txt', 'b.txt', 'src', 'src/lib', 'src/lib/m.ts', 'src/z.ts']);
  });

  it('tells excluded names to a visitor that asks for them, and never lists the engine data', async () => {
    const { seen } = await walkAll({ withExcluded: true });
    expect(seen).toEqual(['a.txt', 'b.txt', 'node_modules (excluded)', 'src', 'src/lib', 'src/lib/m.ts', 'src/z.ts']);
  });

  it("ends the whole walk at the visitor's stop", async () => {
    const seen: string[] = [];
    const { complete } = await walkAll({
      entry: (at, descend) => {
        seen.push(at.rel);
        if (at.rel === 'src/lib/m.ts') return STOP;
        if (at.stats?.isDirectory()) return descend(at, null).then(() => undefined);
      },
    });
    expect(complete).toBe(false);
    expect(seen).toEqual(['a.txt', 'b.txt', 'src', 'src/lib', 'src/lib/m.ts']);
  });

  it('never enters a folder swapped for a link after its lstat: the race error, or unlisted when the visitor says so', async () => {
    const swapThenDescend: TreeVisitor<null>['entry'] = async (at, descend) => {
      if (at.rel !== 'src') return;
      await rename(join(ws, 'src'), join(ws, 'src-moved'));
      await symlink(join(base, 'outside'), join(ws, 'src'));
      const listed = await descend(at, null);
      expect(listed).toBe(false);
    };
    await expect(walkAll({ entry: swapThenDescend })).rejects.toBeInstanceOf(LinkOnPathError);

    await rm(join(ws, 'src'));
    await rename(join(ws, 'src-moved'), join(ws, 'src'));
    const unlisted: string[] = [];
    const seen: string[] = [];
    await walkAll({
      cannotList: (_root, rel, e) => {
        expect(e).toBeInstanceOf(LinkOnPathError);
        unlisted.push(rel);
        return 'unlisted';
      },
      entry: async (at, descend) => {
        seen.push(at.rel);
        if (at.rel === 'src') await swapThenDescend(at, descend);
      },
    });
    expect(unlisted).toEqual(['src']);
    expect(seen).not.toContain('src/secret.txt');
  });
});
