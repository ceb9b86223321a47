// The paths a watcher named, as the scan walks them: per root, a tree of names down to each
// path (`tree`: walk everything below it too). A path outside every tracked root is dropped; an
// answer the scan of dirty paths cannot honour (an ignore file changed, so which folders count
// as ignored may have too; the root folder itself) asks for a full scan instead (null).
import path from 'node:path';
import type { Root } from '../../paths/roots.js';
import type { DirtyPath } from './tree-watcher.js';

export interface DirtyNode {
  tree: boolean;
  children: Map<string, DirtyNode>;
}

export type DirtyRoots = Map<string, DirtyNode>;

const IGNORE_FILES = new Set(['.gitignore']);

export function dirtyRoots(roots: readonly Root[], paths: readonly DirtyPath[]): DirtyRoots | null {
  const result: DirtyRoots = new Map();
  for (const root of roots) {
    if (!root.tracked) continue;
    const prefix = root.real.endsWith(path.sep) ? root.real : root.real + path.sep;
    let top: DirtyNode | undefined;
    for (const { abs, tree } of paths) {
      if (abs === root.real) {
        // The root's own listing is unknown: only a full scan can tell.
        if (tree) return null;
        continue;
      }
      if (!abs.startsWith(prefix)) continue;
      const segments = abs.slice(prefix.length).split(path.sep);
      if (IGNORE_FILES.has(segments[segments.length - 1]!)) return null;
      top ??= { tree: false, children: new Map() };
      let node = top;
      for (const name of segments) {
        if (node.tree) break;
        let child = node.children.get(name);
        if (!child) node.children.set(name, (child = { tree: false, children: new Map() }));
        node = child;
      }
      if (tree) node.tree = true;
    }
    if (top) result.set(root.name, top);
  }
  return result;
}
