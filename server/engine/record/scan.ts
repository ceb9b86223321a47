// A scan walks the tracked roots (minus `exclude` and the engine's own data) and compares each
// path with a baseline (the workspace index, or an open command's snapshot of it): a path whose
// stat matches costs one lstat; a new or changed one is read, and its content kept. It writes
// nothing itself: its caller stores what it kept with the records that need it.
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { ContentBatch } from '../content/contents.js';
import type { EngineLimits } from '../context.js';
import type { EngineFs } from '../paths/fs.js';
import { exclusionOf, isExcludedUri, matchesAny, type RootExclusion } from '../paths/exclude.js';
import type { Root, Roots } from '../paths/roots.js';
import { LinkOnPathError } from '../errors.js';
import { errnoCode, isNotFound } from '../paths/fs.js';
import type { ScanDir } from '../paths/scan-dir.js';
import { type Descend, type TreeVisitor, type WalkEntry, walkTree } from '../paths/walk.js';
import { modeOf } from '../state/state.js';
import { GrewPastLimitError } from '../paths/file-read.js';
import { keepLimit, sizeSkip } from '../state/size-limit.js';
import { grewPastLimit, hashFile, isUnreadableFile, keepFile, SWAP_TRIES } from '../state/read-state.js';
import { isBelowAny } from '../paths/uri.js';
import { countWithinBudget, type IgnoredBudget, IgnoreRules, type OverBudget } from './ignored-folders.js';
import { type IndexEntry, isRacy, sameStat, specialTarget, typeOf } from './workspace-index.js';
import { sameIndexedState } from '../state/state.js';
import type { DirtyNode, DirtyRoots } from './watch/dirty-tree.js';
import { LayeredMap } from './watch/layered-map.js';
import { timeSlicer } from './time-slice.js';

export interface ScanResult {
  /** Every tracked path as found now. */
  current: ReadonlyMap<string, IndexEntry>;
  /** A scan of dirty paths: what it found there (null: gone), all that differs from the baseline. */
  delta?: Map<string, IndexEntry | null>;
  /** Paths whose state differs from the baseline's (new, changed or gone), in walk order. */
  changed: string[];
  /** Entries read afresh (not trusted from the baseline by their stat). */
  fresh: Map<string, IndexEntry>;
  /** Paths that could not be read (a folder it may not list, a file it may not read). */
  unreadable: string[];
  /** Names that are not valid UTF-8 (no URI can name them): lossy path → a signature of what is there. */
  opaque: Map<string, string>;
  /** Git-ignored folders over their budget: left out, with what lies below them (not protected). */
  overBudget: OverBudget[];
}

export interface ScanOptions {
  baseline: ReadonlyMap<string, IndexEntry>;
  /** New and changed contents are kept here. */
  batch: ContentBatch;
  /**
   * Called when the batch holds `bytes` bytes in memory (a before scan stores as it goes), and at
   * a pause the scan makes for the event loop once `entries` entries were read afresh since the
   * last call (a long scan's last store stays short). `bytes`: what the batch took in since.
   */
  partial?: { bytes: number; entries?: number; store(fresh: Map<string, IndexEntry>, bytes: number): void };
  /** Read every file again, whatever its stat says. */
  rehash?: boolean;
  /**
   * Folders the baseline's own scan left out over their budget: left out again, whatever they
   * hold now, so a folder that shrank under its budget during a command is not taken for new.
   */
  leaveOut?: readonly OverBudget[];
  /**
   * Only these paths are looked at (and everything below those marked `tree`); the rest is
   * the baseline's. `below` names what the baseline holds below a folder; what the baseline
   * said unreadable or over budget and the scan did not reach is said so again.
   */
  dirty?: {
    roots: DirtyRoots;
    below(uri: string): Iterable<string>;
    unreadable: ReadonlySet<string>;
    overBudget: readonly OverBudget[];
  };
  /**
   * Called after each path the scan takes in (`fresh`: read now, not trusted from the baseline).
   * A promise it answers is awaited: a background build yields to requests there, and stops the
   * scan by rejecting. Without it, the scan yields to the event loop every few milliseconds itself.
   */
  pace?: (entry: IndexEntry, fresh: boolean) => void | Promise<void>;
}

/** What a scan reads: the filesystem seam, the roots (their exclusions with them), the limits. */
export interface ScanDeps {
  fs: EngineFs;
  roots: Roots;
  limits: EngineLimits;
}

export async function scanTree(ctx: ScanDeps, options: ScanOptions): Promise<ScanResult> {
  const seenMs = Date.now();
  const current = new Map<string, IndexEntry>();
  /** Dirty paths whose baseline entry, and what it held below (`true`), were looked at again. */
  const reached = new Map<string, boolean>();
  const result: ScanResult = {
    current,
    changed: [],
    fresh: new Map(),
    unreadable: [],
    opaque: new Map(),
    overBudget: [],
  };
  /** URIs of the folders left out over their budget: their baseline entries below are dropped, never "gone". */
  const leftOut = new Set<string>();
  const budget = ctx.limits.ignoredBudget;
  let pendingBytes = 0;
  let sincePartial = new Map<string, IndexEntry>();
  const storePart = () => {
    options.partial!.store(sincePartial, pendingBytes);
    sincePartial = new Map();
    pendingBytes = 0;
  };
  const slice = timeSlicer();
  /** A pause for the event loop once the slice is spent, with a partial store first when one is due. */
  const breather = (): Promise<void> | undefined => {
    const pause = slice();
    const entries = options.partial?.entries;
    if (pause && entries !== undefined && sincePartial.size >= entries) storePart();
    return pause;
  };

  const baseOf = (stats: Stats): IndexEntry => ({
    type: typeOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    ino: stats.ino,
    mode: modeOf(stats.mode),
    hash: null,
    target: null,
    skipped: null,
    seenMs,
  });

  const read = async (dir: ScanDir, name: string, stats: Stats, known: IndexEntry | undefined): Promise<IndexEntry> => {
    const base = baseOf(stats);
    if (base.type === 'dir') return { ...base, size: 0 };
    // A FIFO, socket or device: told as what it is, never opened (nothing to keep).
    if (base.type === 'special') return { ...base, size: 0, target: specialTarget(stats), skipped: 'unreadable' };
    const over = base.type === 'symlink' ? undefined : sizeSkip(ctx.limits, stats.size);
    if (over) return { ...base, skipped: over };
    try {
      if (base.type === 'symlink') return { ...base, target: await dir.readlink(name) };
      if (known?.hash && known.size === stats.size && !options.rehash) {
        // Stat moved but the content may not have (a touch, a racy entry): hash before keeping.
        const { hash, size, bytes } = await hashFile(dir, name, stats.size, keepLimit(ctx.limits));
        if (hash === known.hash && size === known.size) return { ...base, hash };
        if (bytes) {
          const kept = options.batch.keepBytes(bytes);
          pendingBytes += kept.size;
          return { ...base, hash: kept.hash };
        }
      }
      const kept = await keepFile(dir, name, stats.size, keepLimit(ctx.limits), options.batch);
      pendingBytes += kept.size;
      return { ...base, size: kept.size, hash: kept.hash };
    } catch (e) {
      if (isUnreadableFile(e, `${dir.abs}${path.sep}${name}`)) return { ...base, skipped: 'unreadable' };
      // It grew past the limit while being read: skipped, what was read dropped.
      if (grewPastLimit(e))
        return { ...base, skipped: sizeSkip(ctx.limits, (e as GrewPastLimitError).size) ?? 'too-large' };
      if (isNotFound(e)) throw new Vanished();
      const code = errnoCode(e);
      // A file swapped for a link, a FIFO or a device (or the reverse) since its lstat: looked at again.
      if (code === 'ELOOP' || code === 'EINVAL' || code === 'EFTYPE') throw new Swapped();
      throw e;
    }
  };

  /** Whether the baseline's entry still holds by the stat alone (no read). Synchronous: the scan's fast path makes no promise. */
  const trusted = (known: IndexEntry | undefined, stats: Stats): known is IndexEntry =>
    known !== undefined && !options.rehash && sameStat(known, stats) && !isRacy(known);

  const lookAgain = async (
    dir: ScanDir,
    name: string,
    known: IndexEntry | undefined,
    first: Stats | null,
  ): Promise<IndexEntry | null> => {
    for (let attempt = 1; ; attempt++) {
      const looked = attempt === 1 ? first : dir.lstat(name);
      const stats = looked instanceof Promise ? await looked : looked;
      if (!stats) return null;
      if (trusted(known, stats)) return known;
      try {
        return await read(dir, name, stats, known);
      } catch (e) {
        if (e instanceof Vanished) return null;
        if (!(e instanceof Swapped)) throw e;
        if (attempt === SWAP_TRIES) return { ...baseOf(stats), target: specialTarget(stats), skipped: 'unreadable' };
      }
    }
  };

  /** What a folder's names see as the walk goes down: the ignore rules in force, and its dirty names (null: all). */
  interface Frame {
    rules: IgnoreRules | null;
    dirty: DirtyNode | null;
  }

  /** Each name the walk reaches: compared with the baseline, taken in, its folder entered as the scan's form asks. */
  const take = (at: WalkEntry<Frame>, descend: Descend<Frame>): void | Promise<void> => {
    const { folder, stats } = at;
    const uri = `${folder.root.name}:/${at.rel}`;
    const known = options.baseline.get(uri);
    if (folder.frame.dirty) reached.set(uri, true);
    if (!stats) return;
    // The common case, a path whose stat matches the baseline, answers at once: no promise per path.
    if (trusted(known, stats)) return settle(at, uri, known, known, descend);
    return lookAgain(folder.dir, at.name, known, stats).then((entry) => {
      if (entry) return settle(at, uri, known, entry, descend);
    });
  };

  const settle = (
    at: WalkEntry<Frame>,
    uri: string,
    known: IndexEntry | undefined,
    entry: IndexEntry,
    descend: Descend<Frame>,
  ): void | Promise<void> => {
    const { rules } = at.folder.frame;
    const ignoredDir =
      entry.type === 'dir' &&
      rules !== null &&
      budget !== null &&
      rules.ignores(at.rel, true) &&
      !matchesAny(ctx.limits.protect, at.rel);
    const leftBefore = options.leaveOut?.find((o) => o.uri === uri);
    if (leftBefore) {
      result.overBudget.push(leftBefore);
      leftOut.add(uri);
      return;
    }
    if (!ignoredDir) return admit(at, uri, known, entry, false, descend);
    return overItsBudget(at, uri, budget).then((over) => {
      if (!over) return admit(at, uri, known, entry, true, descend);
    });
  };

  const admit = (
    at: WalkEntry<Frame>,
    uri: string,
    known: IndexEntry | undefined,
    entry: IndexEntry,
    ignoredDir: boolean,
    descend: Descend<Frame>,
  ): void | Promise<void> => {
    if (entry !== known) {
      result.fresh.set(uri, entry);
      sincePartial.set(uri, entry);
    }
    current.set(uri, entry);
    if (!sameIndexedState(known, entry)) result.changed.push(uri);
    if (entry.skipped === 'unreadable') result.unreadable.push(uri);
    const paced = options.pace ? options.pace(entry, entry !== known) : breather();
    if (paced) return paced.then(() => goOn(at, uri, known, entry, ignoredDir, descend));
    return goOn(at, uri, known, entry, ignoredDir, descend);
  };

  const goOn = (
    at: WalkEntry<Frame>,
    uri: string,
    known: IndexEntry | undefined,
    entry: IndexEntry,
    ignoredDir: boolean,
    descend: Descend<Frame>,
  ): void | Promise<void> => {
    if (options.partial && pendingBytes >= options.partial.bytes) storePart();
    if (entry.type !== 'dir') return;
    const dirtyHere = at.folder.frame.dirty;
    const dirtyChild = dirtyHere?.children.get(at.name) ?? null;
    // A dirty folder the baseline knew as it is now is entered only for its dirty names; a
    // new, changed or unreadable one, or one marked, is walked whole.
    const whole = !dirtyHere || dirtyChild!.tree || entry !== known || known!.skipped === 'unreadable';
    if (dirtyHere && !whole) reached.set(uri, false);
    if (!whole && dirtyChild!.children.size === 0) return;
    const frame: Frame = { rules: ignoredDir ? null : at.folder.frame.rules, dirty: whole ? null : dirtyChild };
    return descend(at, frame).then((listed) => {
      // Whether it could be listed is part of what the scan saw (a folder listed again is seen again).
      if (listed === (entry.skipped !== 'unreadable')) return;
      const seen: IndexEntry = { ...entry, skipped: listed ? null : 'unreadable', seenMs };
      current.set(uri, seen);
      result.fresh.set(uri, seen);
      sincePartial.set(uri, seen);
    });
  };

  const visitor: TreeVisitor<Frame> = {
    namesOf: (folder) => (folder.frame.dirty ? [...folder.frame.dirty.children.keys()] : null),
    // Inside a folder git ignores (within its budget), git reads no further rules: neither do we.
    listed: async (folder, names) => {
      const { rules, dirty } = folder.frame;
      if (!rules || (dirty === null && !names.includes('.gitignore'))) return folder.frame;
      return { rules: rules.within(folder.rel, await gitignoreText(folder.dir, '.gitignore')), dirty };
    },
    opaque: async (folder, raw) => {
      const name = raw.toString('utf8');
      const lossy = `${folder.root.name}:/${folder.rel === '' ? name : `${folder.rel}/${name}`}`;
      result.opaque.set(lossy, await signature(folder.dir, raw));
    },
    // A folder it may not list (or a link swapped in for one) is unreadable; one gone before it was opened, empty.
    // A root that cannot be listed cannot be scanned at all.
    cannotList: (root, rel, e, opening) => {
      if (opening && isNotFound(e)) return 'empty';
      const code = errnoCode(e);
      const denied = code === 'EACCES' || code === 'EPERM' || (opening && e instanceof LinkOnPathError);
      if (rel === '' || !denied) throw e;
      result.unreadable.push(`${root.name}:/${rel}`);
      return 'unlisted';
    },
    entry: take,
  };

  const exclusions = new Map<Root, RootExclusion>();
  const exclusionFor = (root: Root): RootExclusion => {
    let exclusion = exclusions.get(root);
    if (!exclusion) exclusions.set(root, (exclusion = exclusionOf(ctx, root)));
    return exclusion;
  };

  /** Whether the ignored folder `name` holds more than the budget (then it is left out and said so). */
  const overItsBudget = async (at: WalkEntry<Frame>, uri: string, limit: IgnoredBudget): Promise<boolean> => {
    const { root } = at.folder;
    let child: ScanDir;
    try {
      child = at.folder.dir.openDir(at.name);
    } catch {
      return false;
    }
    try {
      const counted = await countWithinBudget(child, limit, { root, rel: at.rel, exclusion: exclusionFor(root) });
      if (!counted.over) return false;
      result.overBudget.push({ uri, files: counted.files, bytes: counted.bytes });
      leftOut.add(uri);
      return true;
    } catch {
      // Whatever stops the count (a folder it may not list) stops the scan below too, which says so.
      return false;
    } finally {
      child.close();
    }
  };

  /** What is at a name no URI can name, and below it, as text that changes when anything there does. */
  const signature = async (dir: ScanDir, raw: Buffer): Promise<string> => {
    const stats = await Promise.resolve(dir.lstat(raw)).catch(() => null);
    if (!stats) return 'gone';
    const own = `${typeOf(stats)}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}:${stats.mode}`;
    if (!stats.isDirectory()) return own;
    let child: ScanDir;
    try {
      child = dir.openDir(raw);
    } catch {
      return own;
    }
    try {
      const children = (await child.listBytes().catch(() => [] as Buffer[])).sort(Buffer.compare);
      const parts = [own];
      for (const name of children) parts.push(`${name.toString('hex')}=${await signature(child, name)}`);
      return parts.join('|');
    } finally {
      child.close();
    }
  };

  for (const root of ctx.roots.list()) {
    if (!root.tracked) continue;
    const dirtyRoot = options.dirty ? options.dirty.roots.get(root.name) : null;
    if (dirtyRoot === undefined) continue;
    const dir = ctx.fs.openScanDir(root.real);
    try {
      const rules = budget === null ? null : IgnoreRules.none().within('', await gitInfoExclude(dir));
      await walkTree(dir, {
        root,
        rel: '',
        frame: { rules, dirty: dirtyRoot },
        exclusion: exclusionFor(root),
        visitor,
      });
    } finally {
      dir.close();
    }
  }
  if (options.partial && sincePartial.size > 0) storePart();

  // Gone since the baseline: what is no longer there, unless it now lies out of the scan's reach.
  const unlisted = new Set(
    result.unreadable.filter((uri) => !result.current.has(uri) || result.current.get(uri)!.type === 'dir'),
  );
  for (const [uri, known] of options.dirty
    ? reachedBaseline(options.baseline, reached, options.dirty.below)
    : options.baseline) {
    if (current.has(uri)) continue;
    // A folder left out over its budget is no longer protected: what the index held there goes, unreported as a change.
    if (leftOut.has(uri) || isBelowAny(uri, leftOut)) continue;
    if (!ctx.roots.isTrackedUri(uri) || isExcludedUri(ctx, uri) || isBelowAny(uri, unlisted)) {
      current.set(uri, known);
      continue;
    }
    result.changed.push(uri);
  }
  if (options.dirty) onlyReached(result, options.baseline, reached, options.dirty);
  return result;
}

/** The baseline's entries a scan of dirty paths looked at again: each path reached, and what it held below when walked whole. */
function* reachedBaseline(
  baseline: ReadonlyMap<string, IndexEntry>,
  reached: ReadonlyMap<string, boolean>,
  below: (uri: string) => Iterable<string>,
): Generator<[string, IndexEntry]> {
  for (const [uri, whole] of reached) {
    const known = baseline.get(uri);
    if (known) yield [uri, known];
    if (!whole || known?.type !== 'dir') continue;
    for (const under of below(uri)) {
      const entry = baseline.get(under);
      if (entry) yield [under, entry];
    }
  }
}

/**
 * A scan of dirty paths: `current` becomes the baseline with what was found laid over it, and
 * what the baseline said unreadable or over budget where the scan did not reach is said again.
 */
function onlyReached(
  result: ScanResult,
  baseline: ReadonlyMap<string, IndexEntry>,
  reached: ReadonlyMap<string, boolean>,
  dirty: NonNullable<ScanOptions['dirty']>,
): void {
  const found = result.current as Map<string, IndexEntry>;
  const delta = new Map<string, IndexEntry | null>(found);
  for (const uri of result.changed) if (!found.has(uri)) delta.set(uri, null);
  const walked = new Set([...reached].filter(([, whole]) => whole).map(([uri]) => uri));
  const notReached = (uri: string) => !reached.has(uri) && !isBelowAny(uri, walked);
  const unreadable = new Set(result.unreadable);
  for (const uri of dirty.unreadable) if (notReached(uri) && !unreadable.has(uri)) result.unreadable.push(uri);
  const over = new Set(result.overBudget.map((o) => o.uri));
  for (const o of dirty.overBudget) if (notReached(o.uri) && !over.has(o.uri)) result.overBudget.push(o);
  result.delta = delta;
  result.current = new LayeredMap(() => baseline, new Map([...delta].map(([uri, entry]) => [uri, entry ?? undefined])));
}

/** The text of a small ignore file in `dir`, or null (absent, not a plain file, too large to be one). */
async function gitignoreText(dir: ScanDir, name: string): Promise<string | null> {
  try {
    const looked = dir.lstat(name);
    const stats = looked instanceof Promise ? await looked : looked;
    if (!stats?.isFile() || stats.size > MAX_IGNORE_FILE) return null;
    return (await dir.readSmallFile(name, MAX_IGNORE_FILE)).toString('utf8');
  } catch {
    return null;
  }
}

/** `.git/info/exclude` of a root: rules of the repository that no `.gitignore` holds. */
async function gitInfoExclude(root: ScanDir): Promise<string | null> {
  let git: ScanDir | null = null;
  let info: ScanDir | null = null;
  try {
    git = root.openDir('.git');
    info = git.openDir('info');
    return await gitignoreText(info, 'exclude');
  } catch {
    return null;
  } finally {
    info?.close();
    git?.close();
  }
}

/** An ignore file larger than this is not one a person wrote: not read. */
const MAX_IGNORE_FILE = 1 << 20;

class Vanished extends Error {}
/** The name changed kind between its lstat and its read (a file swapped for a link, or back). */
class Swapped extends Error {}
