// The one tree walker: the scans (full, and of the paths a watcher saw change) and the recursive
// capture of a folder all walk through it, as each of git's commands walks trees through one
// walk(). It lists a folder through its handle (scan-dir.ts), looks at each name through it,
// and enters a sub-folder only by opening it from its parent's handle, so a folder swapped for a
// link while the walk runs is never entered. The engine's data is never listed; excluded names
// are left out unlooked at, or told as excluded to a visitor that asks for them. What to do with
// each name, and whether to enter a folder, is the visitor's.
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { RootExclusion } from './exclude.js';
import type { Root } from './roots.js';
import type { ScanDir } from './scan-dir.js';

/** A folder being walked; `frame` is what the visitor carries down (ignore rules, dirty names). */
export interface WalkFolder<F> {
  root: Root;
  dir: ScanDir;
  /** Root-relative posix path ('' for the root). */
  rel: string;
  frame: F;
}

export interface WalkEntry<F> {
  folder: WalkFolder<F>;
  name: string;
  /** Root-relative posix path. */
  rel: string;
  /** Its lstat now; null when nothing is there (gone since the listing, or a name asked for that is absent). */
  stats: Stats | null;
  /** Matches an `exclude` glob (only told to a visitor that asks for excluded names). */
  excluded: boolean;
}

/**
 * Walks an entry's folder, its names seeing `frame`. Answers whether it could be listed (true
 * also for one gone before it was opened).
 */
export type Descend<F> = (entry: WalkEntry<F>, frame: F) => Promise<boolean>;

export const STOP = 'stop';

export interface TreeVisitor<F> {
  /** Visit excluded names too (told so) instead of leaving them out unlooked at. */
  withExcluded?: boolean;
  /** The names to look at in a folder instead of listing it (a scan of dirty paths); null lists it. */
  namesOf?(folder: WalkFolder<F>): string[] | null;
  /** A listed name that is not valid UTF-8 (no URI can name it); without this hook it is left out. */
  opaque?(folder: WalkFolder<F>, raw: Buffer): Promise<void>;
  /** Once a folder's names are known (sorted), before its first entry: the frame its entries see. */
  listed?(folder: WalkFolder<F>, names: readonly string[]): F | Promise<F>;
  /**
   * A folder that cannot be listed, or entered (`opening`), for `error`: 'unlisted' (the walk goes
   * on, the folder told unlisted to the caller of descend) or 'empty' (as if it held nothing);
   * anything else thrown stops the walk. Without this hook the error is thrown.
   */
  cannotList?(root: Root, rel: string, error: unknown, opening: boolean): 'unlisted' | 'empty';
  /**
   * One name of a folder, in name order; `descend(entry, frame)` walks it as a folder (once at most). STOP ends
   * the whole walk. A visitor that needs no promise answers synchronously: a scan makes this call
   * for every path of the tree.
   */
  entry(entry: WalkEntry<F>, descend: Descend<F>): void | typeof STOP | Promise<void | typeof STOP>;
}

const REPLACEMENT = '\uFFFD';

export interface Walk<F> {
  root: Root;
  /** Root-relative posix path of the folder walked ('' for the root). */
  rel: string;
  /** What the folder's own names see. */
  frame: F;
  exclusion: RootExclusion;
  visitor: TreeVisitor<F>;
}

/**
 * Walks `dir` (held open by the caller) and below. Answers false when the visitor stopped it,
 * true when it went through.
 */
export async function walkTree<F>(dir: ScanDir, { root, rel, frame, exclusion, visitor }: Walk<F>): Promise<boolean> {
  let stopped = false;

  const names = async (folder: WalkFolder<F>): Promise<string[] | null> => {
    const asked = visitor.namesOf?.(folder);
    if (asked) return asked;
    let listed: string[];
    try {
      const list = folder.dir.list();
      listed = Array.isArray(list) ? list : await list;
    } catch (e) {
      if (!visitor.cannotList) throw e;
      return visitor.cannotList(folder.root, folder.rel, e, false) === 'empty' ? [] : null;
    }
    if (!listed.some((n) => n.includes(REPLACEMENT))) return listed;
    // Some name is not valid UTF-8 (decoded lossily): its bytes tell which.
    const valid: string[] = [];
    for (const raw of await folder.dir.listBytes()) {
      if (isUtf8(raw)) valid.push(raw.toString('utf8'));
      else await visitor.opaque?.(folder, raw);
    }
    return valid;
  };

  const visit = async (folder: WalkFolder<F>): Promise<boolean> => {
    const found = await names(folder);
    if (found === null) return false;
    found.sort();
    if (visitor.listed) folder.frame = await visitor.listed(folder, found);
    const { dir } = folder;
    for (const name of found) {
      const childRel = folder.rel === '' ? name : `${folder.rel}/${name}`;
      if (exclusion.holdsEngineData && exclusion.isEngineData(`${dir.abs}${path.sep}${name}`)) continue;
      const excluded = exclusion.isExcluded(childRel);
      if (excluded && !visitor.withExcluded) continue;
      const looked = dir.lstat(name);
      const stats = looked instanceof Promise ? await looked : looked;
      const answered = visitor.entry({ folder, name, rel: childRel, stats, excluded }, descend);
      const answer = answered instanceof Promise ? await answered : answered;
      if (answer === STOP) stopped = true;
      if (stopped) return true;
    }
    return true;
  };

  /** A sub-folder, opened from its parent's handle: a link swapped in there is the race error, never entered. */
  const descend: Descend<F> = async ({ folder: parent, name, rel: childRel }, childFrame) => {
    let child: ScanDir;
    try {
      child = parent.dir.openDir(name);
    } catch (e) {
      if (!visitor.cannotList) throw e;
      return visitor.cannotList(parent.root, childRel, e, true) === 'empty';
    }
    try {
      return await visit({ root: parent.root, dir: child, rel: childRel, frame: childFrame });
    } finally {
      child.close();
    }
  };

  await visit({ root, dir, rel, frame });
  return !stopped;
}
