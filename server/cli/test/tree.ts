// A byte- and mode-exact snapshot of a directory tree, to compare before and after a rollback.
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const key = prefix + name;
      const info = await lstat(full);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) result[key] = `link ${await readlink(full)}`;
      else if (info.isDirectory()) {
        result[`${key}/`] = `dir ${mode}`;
        await walk(full, `${key}/`);
      } else result[key] = `file ${mode} ${(await readFile(full)).toString('base64')}`;
    }
  }
  await walk(root, '');
  return result;
}
