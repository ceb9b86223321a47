// The one walk of a directory tree the tests share: every path below the root (the root itself
// not listed) with its type, mode, and a file's bytes and sha256; symlinks never followed. The
// suites' own snapshot shapes are views of it (tree.ts of the specs, tree.testutil.ts of the
// reliability suite, treeAsText for the CLI's and the adapter's tests).
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export type WalkedNode =
  | { type: 'file'; mode: number; size: number; sha256: string; bytes: Buffer }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

export interface WalkOptions {
  /** Relative posix paths left out, with everything below them. */
  skip?: (rel: string) => boolean;
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Relative posix path → node, in sorted walk order (a directory before what it holds). */
export async function walkTree(root: string, options: WalkOptions = {}): Promise<Map<string, WalkedNode>> {
  const tree = new Map<string, WalkedNode>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      if (options.skip?.(rel)) continue;
      const abs = join(dir, name);
      const st = await lstat(abs);
      if (st.isSymbolicLink()) {
        tree.set(rel, { type: 'symlink', target: await readlink(abs) });
      } else if (st.isDirectory()) {
        tree.set(rel, { type: 'dir', mode: st.mode & 0o7777 });
        await walk(abs, rel);
      } else if (st.isFile()) {
        const bytes = await readFile(abs);
        tree.set(rel, { type: 'file', mode: st.mode & 0o7777, size: bytes.length, sha256: sha256(bytes), bytes });
      } else {
        throw new Error(`unexpected node type at ${rel}`);
      }
    }
  };
  await walk(root, '');
  return tree;
}

/** The tree as `path → "file <mode> <base64>" | "dir <mode>" | "link <target>"` (directories keyed `path/`). */
export async function treeAsText(root: string, link = 'link '): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [rel, node] of await walkTree(root)) {
    if (node.type === 'symlink') out[rel] = `${link}${node.target}`;
    else if (node.type === 'dir') out[`${rel}/`] = `dir ${node.mode.toString(8)}`;
    else out[rel] = `file ${node.mode.toString(8)} ${node.bytes.toString('base64')}`;
  }
  return out;
}
