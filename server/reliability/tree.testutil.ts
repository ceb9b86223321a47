// Snapshots of a directory tree, so a test can say "every path is wholly its old or wholly
// its new state" and "nothing else appeared" after a crash, a fault or a restore.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export type NodeState =
  | { type: 'file'; hash: string; mode: number; size: number }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

/** Relative posix path → state; the root itself is not listed. */
export type Tree = Map<string, NodeState>;

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function snapshotTree(root: string, skip: (rel: string) => boolean = () => false): Promise<Tree> {
  const tree: Tree = new Map();
  async function walk(dir: string, prefix: string): Promise<void> {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const rel = prefix ? `${prefix}/${name}` : name;
      if (skip(rel)) continue;
      const abs = join(dir, name);
      const st = await lstat(abs);
      if (st.isSymbolicLink()) tree.set(rel, { type: 'symlink', target: await readlink(abs) });
      else if (st.isDirectory()) {
        tree.set(rel, { type: 'dir', mode: st.mode & 0o7777 });
        await walk(abs, rel);
      } else {
        const bytes = await readFile(abs);
        tree.set(rel, { type: 'file', hash: sha256(bytes), mode: st.mode & 0o7777, size: bytes.length });
      }
    }
  }
  await walk(root, '');
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
