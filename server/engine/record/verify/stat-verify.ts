// A full verification scan on every core: which paths differ from the index, found by lstat on
// the stat threads (stat-pool.ts), so that the scan itself then looks only at those (a scan of
// dirty paths, as after a watcher's answer). It tells the same as a walk of the whole tree: every
// path the index names is lstat'd and trusted only when its kind, mode, size, mtime, ctime and
// inode all match (a racy entry, or a folder it could not list, is not compared: always looked
// at), and every folder it names is listed, each name it does not know being looked at. The
// threads' lstats and listings go by path, not through the scan's handles: they only point the
// scan somewhere, and everything it reads or enters there goes through its handles as in a walk.
import fs from 'node:fs';
import path from 'node:path';
import { exclusionOf, type RootExclusion, type RootExcludes } from '../../paths/exclude.js';
import type { Root, Roots } from '../../paths/roots.js';
import type { DirtyPath } from '../watch/tree-watcher.js';
import { isRacy } from '../workspace-index.js';
import { type LaidOutIndex, StatLayout } from './stat-layout.js';
import { type StatAnswer, type StatTask, statPool } from './stat-pool.js';

const KIND = { file: 0, dir: 1, symlink: 2, special: 3 } as const;
const NOT_COMPARED = -1;
const REPLACEMENT = '\uFFFD';

export interface StatVerifyDeps extends RootExcludes {
  roots: Roots;
}

/** Verifies one index again and again: its layout is kept while it fits (stat-layout.ts). */
export class StatVerifier {
  private layout: StatLayout | null = null;

  /**
   * The paths that differ from the index, each to be looked at again; null asks for a walk of
   * the whole tree instead (the threads failed, a root could not be listed, or the index holds
   * paths no walk from a tracked root reaches).
   */
  async dirty(ctx: StatVerifyDeps, index: LaidOutIndex): Promise<DirtyPath[] | null> {
    const map = index.map();
    const tracked = ctx.roots.list().filter((root) => root.tracked);
    if (!this.layout?.fits(map, tracked)) this.layout = StatLayout.of(index, tracked, statPool.size());
    const layout = this.layout;
    if (!layout) return null;
    const { uris, abs } = layout;
    const dirty: DirtyPath[] = [];
    const kinds = new Int8Array(uris.length);
    const stats = new Float64Array(uris.length * 5);
    for (let i = 0; i < uris.length; i++) {
      const entry = map.get(uris[i]!)!;
      if (entry.type === 'dir' && entry.skipped === 'unreadable') {
        kinds[i] = NOT_COMPARED;
        dirty.push({ abs: abs[i]!, tree: true });
        continue;
      }
      if (isRacy(entry)) {
        kinds[i] = NOT_COMPARED;
        dirty.push({ abs: abs[i]!, tree: false });
        continue;
      }
      kinds[i] = KIND[entry.type];
      const k = 5 * i;
      stats[k] = entry.mode;
      stats[k + 1] = entry.size;
      stats[k + 2] = entry.mtimeMs;
      stats[k + 3] = entry.ctimeMs;
      stats[k + 4] = entry.ino;
    }
    const tasks: StatTask[] = layout.shares.map((share) => ({
      paths: share.paths,
      // Copies: a view would send its whole buffer to every thread.
      kinds: kinds.slice(share.offset, share.end),
      stats: stats.slice(5 * share.offset, 5 * share.end),
      groups: share.groups,
      owners: share.owners,
      seen: layout.seen.slice(3 * share.firstGroup, 3 * (share.firstGroup + share.groups.length / 3)),
    }));
    let answers: StatAnswer[];
    try {
      answers = await statPool.run(tasks);
    } catch {
      return null;
    }
    const exclusions = new Map<Root, RootExclusion>();
    const exclusionFor = (root: Root) => {
      let exclusion = exclusions.get(root);
      if (!exclusion) exclusions.set(root, (exclusion = exclusionOf(ctx, root)));
      return exclusion;
    };
    for (let t = 0; t < answers.length; t++) {
      const answer = answers[t]!;
      const { offset, firstGroup } = layout.shares[t]!;
      layout.seen.set(answer.clean, 3 * firstGroup);
      for (const i of answer.differ) dirty.push({ abs: abs[offset + i]!, tree: false });
      for (const ref of answer.unlistable) {
        if (ref < 0) return null; // a root it cannot list: the walk says why
        dirty.push({ abs: abs[ref]!, tree: true });
      }
      for (const [ref, name] of answer.added) {
        const root = tracked[ref < 0 ? -1 - ref : layout.rootOf[ref]!]!;
        const folder = ref < 0 ? root.real : abs[ref]!;
        // A name no URI can name: the walk of its folder says what it is.
        if (name.includes(REPLACEMENT)) {
          dirty.push({ abs: folder, tree: true });
          continue;
        }
        const at = `${folder}${path.sep}${name}`;
        const exclusion = exclusionFor(root);
        if (exclusion.holdsEngineData && exclusion.isEngineData(at)) continue;
        if (
          exclusion.isExcluded(
            at
              .slice(root.real.length + 1)
              .split(path.sep)
              .join('/'),
          )
        )
          continue;
        dirty.push({ abs: at, tree: false });
      }
    }
    return dirty;
  }
}

/**
 * What the ignore rules no `.gitignore` holds look like now (each root's `.git/info/exclude`,
 * by its stat): a verification by stat cannot tell a change there (`.git` is excluded), so a
 * change asks for a walk of the whole tree.
 */
export function outsideRulesSignature(roots: readonly Root[]): string {
  return roots
    .filter((root) => root.tracked)
    .map((root) => {
      let stats: fs.Stats | undefined;
      try {
        stats = fs.lstatSync(path.join(root.real, '.git', 'info', 'exclude'), { throwIfNoEntry: false });
      } catch {
        stats = undefined; // `.git` is a file (a worktree's) or cannot be looked into: no rules there
      }
      return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.mode}` : '-';
    })
    .join('|');
}
