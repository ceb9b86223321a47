// Comparing two snapshots of tree.ts: which paths differ, said readably, so a rollback is judged
// as "the tree is exactly what it was" rather than "some files look right", and a crash or a
// fault as "every path is wholly its old or wholly its new state".
import type { Tree, TreeNode } from './tree.js';

/** The same state: type, mode, a file's bytes, a link's target (absent equals absent). */
export function sameNode(a: TreeNode | undefined, b: TreeNode | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.type === 'file' && b.type === 'file') return a.mode === b.mode && a.sha256 === b.sha256;
  if (a.type === 'dir' && b.type === 'dir') return a.mode === b.mode;
  if (a.type === 'symlink' && b.type === 'symlink') return a.target === b.target;
  return false;
}

function describe(node: TreeNode | undefined): string {
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

const pathsOf = (...trees: Tree[]) => [...new Set(trees.flatMap((tree) => [...tree.keys()]))].sort();

/** Paths whose state differs between two trees, with both sides; empty when equal. */
export function treeDiff(a: Tree, b: Tree): { path: string; a: TreeNode | null; b: TreeNode | null }[] {
  return pathsOf(a, b)
    .filter((path) => !sameNode(a.get(path), b.get(path)))
    .map((path) => ({ path, a: a.get(path) ?? null, b: b.get(path) ?? null }));
}

/** One line per differing path (`path: expected … / actual …`); empty when identical. */
export function diffTrees(expected: Tree, actual: Tree): string[] {
  return treeDiff(expected, actual).map(
    ({ path, a, b }) => `${path}: expected ${describe(a ?? undefined)} / actual ${describe(b ?? undefined)}`,
  );
}

/** Throws with a readable diff when `actual` is not exactly `expected`. */
export function assertSameTree(expected: Tree, actual: Tree, label = 'tree'): void {
  const lines = diffTrees(expected, actual);
  if (lines.length > 0) {
    throw new Error(`${label} differs in ${lines.length} path(s):\n  ${lines.join('\n  ')}`);
  }
}

/**
 * Paths of `now` whose state is none of the allowed trees' (the old tree, the new one, and
 * the whole states between steps). A file caught half-written, a temp file left behind or a
 * path nobody asked for all show up here. For directories only their existence is compared.
 */
export function pathsNeitherOldNorNew(allowed: Tree[], now: Tree): string[] {
  const sameLoose = (a: TreeNode | undefined, b: TreeNode | undefined) =>
    (a?.type === 'dir' && b?.type === 'dir') || sameNode(a, b);
  return pathsOf(...allowed, now).filter((path) => !allowed.some((tree) => sameLoose(tree.get(path), now.get(path))));
}
