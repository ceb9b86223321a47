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
import { type IndexEntry, isRacy } from '../workspace-index.js';
import { type StatAnswer, type StatTask, statPool } from './stat-pool.js';

const KIND = { file: 0, dir: 1, symlink: 2, special: 3 } as const;
const NOT_COMPARED = -1;
const REPLACEMENT = '\uFFFD';

export interface StatVerifyDeps extends RootExcludes {
  roots: Roots;
}

/** The index as a verification reads it: its entries, and which lie directly below a folder. */
export interface VerifiedIndex {
  map(): ReadonlyMap<string, IndexEntry>;
  childrenOf(uri: string): ReadonlySet<string> | undefined;
}

/**
 * The paths that differ from the index, each to be looked at again; null asks for a walk of the
 * whole tree instead (the threads failed, a root could not be listed, or the index holds paths
 * no walk from a tracked root reaches).
 */
export async function dirtyByStat(ctx: StatVerifyDeps, index: VerifiedIndex): Promise<DirtyPath[] | null> {
  const map = index.map();
  const tracked = ctx.roots.list().filter((root) => root.tracked);
  const dirty: DirtyPath[] = [];
  // Every entry, in the order of the folders holding them (one group per folder).
  const abs: string[] = [];
  const rootOf: number[] = [];
  const kinds = new Int8Array(map.size);
  const stats = new Float64Array(map.size * 5);
  /** Per folder: its reference (an entry, or -1 - root), its first and end entry. */
  const groups: number[] = [];
  const owners: string[] = [];
  for (let r = 0; r < tracked.length; r++) {
    const root = tracked[r]!;
    const pending: { uri: string; ref: number; abs: string }[] = [{ uri: `${root.name}:/`, ref: -1 - r, abs: root.real }];
    while (pending.length > 0) {
      const folder = pending.pop()!;
      const first = abs.length;
      const cut = folder.uri.endsWith(':/') ? folder.uri.length : folder.uri.length + 1;
      for (const uri of index.childrenOf(folder.uri) ?? []) {
        const entry = map.get(uri)!;
        const i = abs.length;
        if (i >= map.size) return null;
        const at = `${folder.abs}${path.sep}${uri.slice(cut)}`;
        abs.push(at);
        rootOf.push(r);
        if (entry.type === 'dir' && entry.skipped === 'unreadable') {
          kinds[i] = NOT_COMPARED;
          dirty.push({ abs: at, tree: true });
          continue;
        }
        if (isRacy(entry)) {
          kinds[i] = NOT_COMPARED;
          dirty.push({ abs: at, tree: false });
          continue;
        }
        kinds[i] = KIND[entry.type];
        const k = 5 * i;
        stats[k] = entry.mode;
        stats[k + 1] = entry.size;
        stats[k + 2] = entry.mtimeMs;
        stats[k + 3] = entry.ctimeMs;
        stats[k + 4] = entry.ino;
        if (entry.type === 'dir') pending.push({ uri, ref: i, abs: at });
      }
      groups.push(folder.ref, first, abs.length);
      owners.push(folder.abs);
    }
  }
  // Paths outside every walk from a tracked root (an untracked root's, or below a newly excluded folder): walked.
  if (abs.length !== map.size) return null;
  const tasks = tasksOf(abs, kinds, stats, groups, owners, statPool.size());
  let answers: StatAnswer[];
  try {
    answers = await statPool.run(tasks.map((t) => t.task));
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
    const offset = tasks[t]!.offset;
    for (const i of answer.differ) dirty.push({ abs: abs[offset + i]!, tree: false });
    for (const ref of answer.unlistable) {
      if (ref < 0) return null; // a root it cannot list: the walk says why
      dirty.push({ abs: abs[ref]!, tree: true });
    }
    for (const [ref, name] of answer.added) {
      const root = tracked[ref < 0 ? -1 - ref : rootOf[ref]!]!;
      const folder = ref < 0 ? root.real : abs[ref]!;
      // A name no URI can name: the walk of its folder says what it is.
      if (name.includes(REPLACEMENT)) {
        dirty.push({ abs: folder, tree: true });
        continue;
      }
      const at = `${folder}${path.sep}${name}`;
      const exclusion = exclusionFor(root);
      if (exclusion.holdsEngineData && exclusion.isEngineData(at)) continue;
      if (exclusion.isExcluded(at.slice(root.real.length + 1).split(path.sep).join('/'))) continue;
      dirty.push({ abs: at, tree: false });
    }
  }
  return dirty;
}

/** The groups cut into one task per thread, of about as many entries each; `offset`: a task's first entry. */
function tasksOf(
  abs: string[],
  kinds: Int8Array,
  stats: Float64Array,
  groups: number[],
  owners: string[],
  threads: number,
): { task: StatTask; offset: number }[] {
  const tasks: { task: StatTask; offset: number }[] = [];
  const share = Math.ceil(abs.length / threads);
  let g = 0;
  while (g < owners.length) {
    const firstGroup = g;
    const offset = groups[3 * g + 1]!;
    // The last task takes what is left, so that rounding makes no extra one.
    const last = tasks.length === threads - 1;
    while (g < owners.length && (g === firstGroup || last || groups[3 * g + 2]! - offset <= share)) g++;
    const end = groups[3 * (g - 1) + 2]!;
    const local = new Int32Array(3 * (g - firstGroup));
    for (let j = firstGroup; j < g; j++) {
      local[3 * (j - firstGroup)] = groups[3 * j]!;
      local[3 * (j - firstGroup) + 1] = groups[3 * j + 1]! - offset;
      local[3 * (j - firstGroup) + 2] = groups[3 * j + 2]! - offset;
    }
    tasks.push({
      offset,
      task: {
        paths: abs.slice(offset, end).join('\0'),
        // Copies: a view would send its whole buffer to every thread.
        kinds: kinds.slice(offset, end),
        stats: stats.slice(5 * offset, 5 * end),
        groups: local,
        owners: owners.slice(firstGroup, g).join('\0'),
      },
    });
  }
  return tasks;
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
