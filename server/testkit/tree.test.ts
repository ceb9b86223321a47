// The tree snapshot is the judge of every rollback spec, so it must itself notice every kind
// of difference: bytes, mode, symlink target, type, and an extra empty directory.
import { chmod, mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertSameTree, diffTrees } from './tree-diff.js';
import { snapshotTree } from './tree.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-tree-'));
  await mkdir(join(root, 'd/empty'), { recursive: true });
  await writeFile(join(root, 'd/f'), Buffer.from([0, 1, 2]));
  await writeFile(join(root, 'g'), 'text');
  await symlink('d/f', join(root, 'l'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('tree snapshots', () => {
  it('are equal for an untouched tree', async () => {
    assertSameTree(await snapshotTree(root), await snapshotTree(root));
  });

  it.each([
    ['a byte', () => writeFile(join(root, 'd/f'), Buffer.from([0, 1, 3])), 'd/f'],
    ['a mode', () => chmod(join(root, 'g'), 0o755), 'g'],
    ['a directory mode', () => chmod(join(root, 'd/empty'), 0o700), 'd/empty'],
    [
      'a symlink target',
      async () => {
        await unlink(join(root, 'l'));
        await symlink('g', join(root, 'l'));
      },
      'l',
    ],
    [
      'a type',
      async () => {
        await unlink(join(root, 'l'));
        await writeFile(join(root, 'l'), 'd/f');
      },
      'l',
    ],
    ['an extra empty directory', () => mkdir(join(root, 'new')), 'new'],
    ['a missing empty directory', () => rm(join(root, 'd/empty'), { recursive: true }), 'd/empty'],
  ])('notice %s', async (_label, change, path) => {
    const before = await snapshotTree(root);
    await change();
    const lines = diffTrees(before, await snapshotTree(root));
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`${path}:`)).toBe(true);
    expect(() => assertSameTree(before, new Map())).toThrow(/differs/);
  });

  it('leaves ignored paths out', async () => {
    const tree = await snapshotTree(root, { ignore: ['d'] });
    expect([...tree.keys()]).toEqual(['g', 'l']);
  });
});
