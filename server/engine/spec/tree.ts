// Byte-exact, mode-exact snapshots of a directory tree (files, directories, symlinks, empty
// directories included) and a readable diff between two of them, so a rollback can be
// judged as "the tree is exactly what it was" rather than "some files look right".
import { walkTree } from '../../testkit/tree.js';

export type Node =
  | { type: 'file'; mode: number; size: number; sha256: string; preview: string }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

/** Relative posix path → node; the root itself is not listed. */
export type Tree = Map<string, Node>;

export interface SnapshotOptions {
  /** Relative paths (and everything under them) left out, e.g. a data dir inside the tree. */
  ignore?: string[];
}

export async function snapshot(root: string, options: SnapshotOptions = {}): Promise<Tree> {
  const ignore = new Set(options.ignore ?? []);
  const tree: Tree = new Map();
  for (const [rel, node] of await walkTree(root, { skip: (rel) => ignore.has(rel) })) {
    tree.set(
      rel,
      node.type === 'file'
        ? { type: 'file', mode: node.mode, size: node.size, sha256: node.sha256, preview: describeBytes(node.bytes) }
        : node,
    );
  }
  return tree;
}

function describeBytes(bytes: Buffer): string {
  const head = bytes.subarray(0, 40);
  const text = head.toString('utf8');
  const printable = !head.includes(0) && Buffer.from(text, 'utf8').equals(head);
  const shown = printable ? JSON.stringify(text) : `0x${head.toString('hex')}`;
  return bytes.length > head.length ? `${shown}…` : shown;
}

function describe(node: Node | undefined): string {
  if (!node) return '(absent)';
  switch (node.type) {
    case 'file':
      return `file ${node.mode.toString(8)} ${node.size}B ${node.preview}`;
    case 'dir':
      return `dir ${node.mode.toString(8)}`;
    case 'symlink':
      return `symlink -> ${node.target}`;
  }
}

function sameNode(a: Node, b: Node): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'file' && b.type === 'file') return a.mode === b.mode && a.sha256 === b.sha256;
  if (a.type === 'dir' && b.type === 'dir') return a.mode === b.mode;
  if (a.type === 'symlink' && b.type === 'symlink') return a.target === b.target;
  return false;
}

/** One line per differing path (`path: expected … / actual …`); empty when identical. */
export function diffTrees(expected: Tree, actual: Tree): string[] {
  const paths = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  const lines: string[] = [];
  for (const path of paths) {
    const e = expected.get(path);
    const a = actual.get(path);
    if (e && a && sameNode(e, a)) continue;
    lines.push(`${path}: expected ${describe(e)} / actual ${describe(a)}`);
  }
  return lines;
}

/** Throws with a readable diff when `actual` is not exactly `expected`. */
export function assertSameTree(expected: Tree, actual: Tree, label = 'tree'): void {
  const lines = diffTrees(expected, actual);
  if (lines.length > 0) {
    throw new Error(`${label} differs in ${lines.length} path(s):\n  ${lines.join('\n  ')}`);
  }
}

export function formatTree(tree: Tree): string {
  return [...tree.entries()].map(([path, node]) => `${path}: ${describe(node)}`).join('\n');
}
