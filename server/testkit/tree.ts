// The one snapshot of a directory tree the tests share: every path below the root (the root
// itself not listed) with its type and mode, a file's size, sha256 and a readable preview of its
// first bytes; symlinks never followed. Unit tests, the specs, the reliability suite and the
// real-CLI suites all judge a tree by it (tree-diff.ts compares two), so "the tree is exactly
// what it was" means the same thing everywhere. treeAsText is the same walk as a plain record,
// for assertions that compare whole trees with toEqual.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export type WalkedNode =
  | { type: 'file'; mode: number; size: number; sha256: string; bytes: Buffer }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

export type TreeNode =
  | { type: 'file'; mode: number; size: number; sha256: string; preview: string }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

/** Relative posix path → node, in sorted walk order (a directory before what it holds). */
export type Tree = Map<string, TreeNode>;

export interface WalkOptions {
  /** Relative posix paths left out, with everything below them. */
  skip?: (rel: string) => boolean;
}

export interface SnapshotOptions extends WalkOptions {
  /** Relative paths left out with everything under them, e.g. a data dir inside the tree. */
  ignore?: string[];
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Relative posix path → node with a file's bytes, in sorted walk order. */
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

export async function snapshotTree(root: string, options: SnapshotOptions = {}): Promise<Tree> {
  const ignore = new Set(options.ignore ?? []);
  const skip = (rel: string) => ignore.has(rel) || (options.skip?.(rel) ?? false);
  const tree: Tree = new Map();
  for (const [rel, node] of await walkTree(root, { skip })) {
    tree.set(
      rel,
      node.type === 'file'
        ? { type: 'file', mode: node.mode, size: node.size, sha256: node.sha256, preview: previewOf(node.bytes) }
        : node,
    );
  }
  return tree;
}

/** The first 40 bytes, as JSON text when printable, else as hex; `…` when there is more. */
function previewOf(bytes: Buffer): string {
  const head = bytes.subarray(0, 40);
  const text = head.toString('utf8');
  const printable = !head.includes(0) && Buffer.from(text, 'utf8').equals(head);
  const shown = printable ? JSON.stringify(text) : `0x${head.toString('hex')}`;
  return bytes.length > head.length ? `${shown}…` : shown;
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
