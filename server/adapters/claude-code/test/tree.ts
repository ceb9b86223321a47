// A workspace tree as a comparable value: every path with its type, mode and content.
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export type Tree = Record<string, string>;

export async function snapshotTree(root: string, dir = root, tree: Tree = {}): Promise<Tree> {
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    const rel = path.slice(root.length + 1);
    const stat = await lstat(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isDirectory()) {
      tree[rel + '/'] = `dir ${mode}`;
      await snapshotTree(root, path, tree);
    } else if (stat.isSymbolicLink()) {
      tree[rel] = `link -> ${await readlink(path)}`;
    } else {
      tree[rel] = `file ${mode} ${(await readFile(path)).toString('base64')}`;
    }
  }
  return tree;
}
