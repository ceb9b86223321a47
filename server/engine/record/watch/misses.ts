// Which changes a full scan found that the watcher should have named: a change is covered when a
// scan of what the watcher named would have reached it (its path named; or a folder above it
// named to be walked whole, or named and new, gone or changed, which the scan then walks whole).
import type { IndexEntry } from '../../db/workspace-index.js';
import type { Roots } from '../../paths/roots.js';
import { formatUri, parseUri } from '../../paths/uri.js';
import { dirtyRoots } from './dirty-tree.js';
import type { DirtyPath } from './tree-watcher.js';

export interface Miss {
  uri: string;
  abs: string;
  /** What happened there, as the full scan saw it. */
  reason: 'created' | 'removed' | 'changed';
}

/** Whether a scan of the dirty paths, meeting this folder, walks it whole (it is not the one the index knew). */
function walkedWhole(before: IndexEntry | undefined, after: IndexEntry | undefined): boolean {
  return !before || !after || before.type !== after.type || before.mode !== after.mode || before.ino !== after.ino;
}

export function missedBy(
  roots: Roots,
  named: readonly DirtyPath[],
  changed: readonly string[],
  before: ReadonlyMap<string, IndexEntry>,
  after: ReadonlyMap<string, IndexEntry>,
): Miss[] {
  const tree = dirtyRoots(roots.list(), named);
  // The watcher asked for a full scan (an ignore file, the root itself): nothing was left to it.
  if (tree === null) return [];
  const missed: Miss[] = [];
  for (const uri of changed) {
    const found = roots.absOf(uri);
    if (!found) continue;
    const { root, segments } = parseUri(uri);
    let node = tree.get(root);
    let covered = false;
    for (let i = 0; node && !covered; i++) {
      if (node.tree || i === segments.length) covered = true;
      else if (
        i > 0 &&
        walkedWhole(before.get(formatUri(root, segments.slice(0, i))), after.get(formatUri(root, segments.slice(0, i))))
      )
        covered = true;
      else node = node.children.get(segments[i]!);
    }
    if (covered) continue;
    const reason = !before.has(uri) ? 'created' : !after.has(uri) ? 'removed' : 'changed';
    missed.push({ uri, abs: found.abs, reason });
  }
  return missed;
}
