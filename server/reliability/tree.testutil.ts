// Snapshots of a directory tree, so a test can say "every path is wholly its old or wholly
// its new state" and "nothing else appeared" after a crash, a fault or a restore.
import { sha256, walkTree } from '../testkit/tree.js';

export type NodeState =
  | { type: 'file'; hash: string; mode: number; size: number }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

/** Relative posix path → state; the root itself is not listed. */
export type Tree = Map<string, NodeState>;

export { sha256 };

export async function snapshotTree(root: string, skip: (rel: string) => boolean = () => false): Promise<Tree> {
  const tree: Tree = new Map();
  for (const [rel, node] of await walkTree(root, { skip })) {
    tree.set(rel, node.type === 'file' ? { type: 'file', hash: node.sha256, mode: node.mode, size: node.size } : node);
  }
  return tree;
}

export function sameState(a: NodeState | undefined, b: NodeState | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Paths whose state differs between two trees, with both sides; empty when equal. */
export function treeDiff(a: Tree, b: Tree): { path: string; a: NodeState | null; b: NodeState | null }[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  const out: { path: string; a: NodeState | null; b: NodeState | null }[] = [];
  for (const path of [...paths].sort()) {
    if (!sameState(a.get(path), b.get(path))) out.push({ path, a: a.get(path) ?? null, b: b.get(path) ?? null });
  }
  return out;
}

/**
 * Paths of `now` whose state is none of the allowed trees' (the old tree, the new one, and
 * the whole states between steps). A file caught half-written, a temp file left behind or a
 * path nobody asked for all show up here. For directories only their existence is compared.
 */
export function pathsNeitherOldNorNew(allowed: Tree[], now: Tree): string[] {
  const paths = new Set([...allowed.flatMap((t) => [...t.keys()]), ...now.keys()]);
  const bad: string[] = [];
  for (const path of [...paths].sort()) {
    const n = now.get(path);
    const ok = allowed.some((t) => sameLoose(t.get(path), n));
    if (!ok) bad.push(path);
  }
  return bad;
}

function sameLoose(a: NodeState | undefined, b: NodeState | undefined): boolean {
  if (a?.type === 'dir' && b?.type === 'dir') return true;
  return sameState(a, b);
}
