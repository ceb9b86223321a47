// A scan walks the tracked roots (minus `exclude` and the engine's own data) and compares each
// path with a baseline (the workspace index, or an open command's snapshot of it): a path whose
// stat matches costs one lstat; a new or changed one is read, and its content kept. It writes
// nothing itself: its caller stores what it kept with the records that need it.
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { ContentBatch } from '../content/contents.js';
import type { EngineContext } from '../context.js';
import { isExcludedPath, matchesAny } from '../paths/exclude.js';
import { LinkOnPathError } from '../errors.js';
import { errnoCode, isNotFound } from '../paths/fs.js';
import type { Root } from '../paths/roots.js';
import type { ScanDir } from '../paths/scan-dir.js';
import { modeOf } from '../state/state.js';
import { grewPastLimit, hashFile, isUnreadableFile, keepFile, SWAP_TRIES } from '../state/read-state.js';
import { isBelowAny } from '../paths/uri.js';
import { countWithinBudget, type IgnoredBudget, IgnoreRules, type OverBudget } from './ignored-folders.js';
import { type IndexEntry, isRacy, sameStat, specialTarget, typeOf } from './workspace-index.js';
import { sameIndexedState } from '../state/state.js';

export interface ScanResult {
  /** Every tracked path as found now. */
  current: Map<string, IndexEntry>;
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
  /** Called when the batch holds this many bytes in memory (a before scan stores as it goes). */
  partial?: { bytes: number; store(fresh: Map<string, IndexEntry>): void };
  /** Read every file again, whatever its stat says. */
  rehash?: boolean;
  /**
   * Folders the baseline's own scan left out over their budget: left out again, whatever they
   * hold now, so a folder that shrank under its budget during a command is not taken for new.
   */
  leaveOut?: readonly OverBudget[];
}

const REPLACEMENT = '\uFFFD';

export async function scanTree(ctx: EngineContext, options: ScanOptions): Promise<ScanResult> {
  const seenMs = Date.now();
  const result: ScanResult = {
    current: new Map(),
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
    if (stats.size > ctx.limits.maxFileSize && base.type !== 'symlink') return { ...base, skipped: 'too-large' };
    try {
      if (base.type === 'symlink') return { ...base, target: await dir.readlink(name) };
      if (known?.hash && known.size === stats.size && !options.rehash) {
        // Stat moved but the content may not have (a touch, a racy entry): hash before keeping.
        const { hash, size, bytes } = await hashFile(dir, name, stats.size, ctx.limits.maxFileSize);
        if (hash === known.hash && size === known.size) return { ...base, hash };
        if (bytes) {
          const kept = options.batch.keepBytes(bytes);
          pendingBytes += kept.size;
          return { ...base, hash: kept.hash };
        }
      }
      const kept = await keepFile(dir, name, stats.size, ctx.limits.maxFileSize, options.batch);
      pendingBytes += kept.size;
      return { ...base, size: kept.size, hash: kept.hash };
    } catch (e) {
      if (isUnreadableFile(e, `${dir.abs}${path.sep}${name}`)) return { ...base, skipped: 'unreadable' };
      // It grew past the limit while being read: skipped, what was read dropped.
      if (grewPastLimit(e)) return { ...base, skipped: 'too-large' };
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

  /** What `name` holds now (read again when it was swapped between its lstat and its read); null when gone. */
  const look = (
    dir: ScanDir,
    name: string,
    known: IndexEntry | undefined,
  ): IndexEntry | null | Promise<IndexEntry | null> => {
    const looked = dir.lstat(name);
    if (looked instanceof Promise) return looked.then((stats) => lookAgain(dir, name, known, stats));
    // The common case, a path whose stat matches the baseline, answers at once: no promise per path.
    if (looked && trusted(known, looked)) return known;
    return lookAgain(dir, name, known, looked);
  };

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

  /**
   * `rel`: the root-relative posix path of the directory ('' for the root). Answers false when
   * it cannot be listed: what lies below it is unknown (a root that cannot be listed cannot be
   * scanned at all, and throws).
   */
  const visit = async (
    root: Root,
    skip: string[],
    dir: ScanDir,
    rel: string,
    rules: IgnoreRules | null,
  ): Promise<boolean> => {
    let names: string[];
    try {
      const listed = dir.list();
      names = Array.isArray(listed) ? listed : await listed;
    } catch (e) {
      const code = errnoCode(e);
      if (rel !== '' && (code === 'EACCES' || code === 'EPERM')) {
        result.unreadable.push(`${root.name}:/${rel}`);
        return false;
      }
      throw e;
    }
    if (names.some((n) => n.includes(REPLACEMENT))) names = await namesSplittingOpaque(root, dir, rel);
    names.sort();
    // Inside a folder git ignores (within its budget), git reads no further rules: neither do we.
    if (rules && names.includes('.gitignore')) rules = rules.within(rel, await gitignoreText(dir, '.gitignore'));
    for (const name of names) {
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const childAbs = `${dir.abs}${path.sep}${name}`;
      if (
        isExcludedPath(ctx, childRel) ||
        (skip.length > 0 && skip.some((p) => childAbs === p || childAbs.startsWith(p + path.sep)))
      )
        continue;
      const uri = `${root.name}:/${childRel}`;
      const known = options.baseline.get(uri);
      const looked = look(dir, name, known);
      const entry = looked instanceof Promise ? await looked : looked;
      if (!entry) continue;
      const ignoredDir =
        entry.type === 'dir' &&
        rules !== null &&
        budget !== null &&
        rules.ignores(childRel, true) &&
        !matchesAny(ctx.limits.protect, childRel);
      const leftBefore = options.leaveOut?.find((o) => o.uri === uri);
      if (leftBefore) {
        result.overBudget.push(leftBefore);
        leftOut.add(uri);
        continue;
      }
      if (ignoredDir && (await overItsBudget(dir, name, uri, budget))) continue;
      if (entry !== known) {
        result.fresh.set(uri, entry);
        sincePartial.set(uri, entry);
      }
      result.current.set(uri, entry);
      if (!sameIndexedState(known, entry)) result.changed.push(uri);
      if (entry.skipped === 'unreadable') result.unreadable.push(uri);
      if (options.partial && pendingBytes >= options.partial.bytes) {
        options.partial.store(sincePartial);
        sincePartial = new Map();
        pendingBytes = 0;
      }
      if (entry.type === 'dir') {
        const listed = await visitChild(root, skip, dir, name, childRel, ignoredDir ? null : rules);
        // Whether it could be listed is part of what the scan saw (a folder listed again is seen again).
        if (listed !== (entry.skipped !== 'unreadable')) {
          const seen: IndexEntry = { ...entry, skipped: listed ? null : 'unreadable', seenMs };
          result.current.set(uri, seen);
          result.fresh.set(uri, seen);
          sincePartial.set(uri, seen);
        }
      }
    }
    return true;
  };

  /** A sub-directory, entered through its parent's handle: gone is listed (empty), a link swapped in is not listable. */
  const visitChild = async (
    root: Root,
    skip: string[],
    parent: ScanDir,
    name: string,
    rel: string,
    rules: IgnoreRules | null,
  ): Promise<boolean> => {
    let child: ScanDir;
    try {
      child = parent.openDir(name);
    } catch (e) {
      if (isNotFound(e)) return true;
      const code = errnoCode(e);
      if (e instanceof LinkOnPathError || code === 'EACCES' || code === 'EPERM') {
        result.unreadable.push(`${root.name}:/${rel}`);
        return false;
      }
      throw e;
    }
    try {
      return await visit(root, skip, child, rel, rules);
    } finally {
      child.close();
    }
  };

  /** Whether the ignored folder `name` holds more than the budget (then it is left out and said so). */
  const overItsBudget = async (parent: ScanDir, name: string, uri: string, limit: IgnoredBudget): Promise<boolean> => {
    let child: ScanDir;
    try {
      child = parent.openDir(name);
    } catch {
      return false;
    }
    try {
      const counted = await countWithinBudget(child, limit);
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

  /** Splits a listing into its valid names and the ones that are not UTF-8 (kept as signatures). */
  const namesSplittingOpaque = async (root: Root, dir: ScanDir, rel: string): Promise<string[]> => {
    const valid: string[] = [];
    for (const raw of await dir.listBytes()) {
      if (isUtf8(raw)) {
        valid.push(raw.toString('utf8'));
        continue;
      }
      const name = raw.toString('utf8');
      const lossy = `${root.name}:/${rel === '' ? name : `${rel}/${name}`}`;
      result.opaque.set(lossy, await signature(dir, raw));
    }
    return valid;
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
    const dir = ctx.fs.openScanDir(root.real);
    try {
      const rules = budget === null ? null : IgnoreRules.none().within('', await gitInfoExclude(dir));
      await visit(root, ctx.roots.engineDataIn(root), dir, '', rules);
    } finally {
      dir.close();
    }
  }
  if (options.partial && sincePartial.size > 0) options.partial.store(sincePartial);

  // Gone since the baseline: what is no longer there, unless it now lies out of the scan's reach.
  const unlisted = new Set(
    result.unreadable.filter((uri) => !result.current.has(uri) || result.current.get(uri)!.type === 'dir'),
  );
  for (const [uri, known] of options.baseline) {
    if (result.current.has(uri)) continue;
    // A folder left out over its budget is no longer protected: what the index held there goes, unreported as a change.
    if (leftOut.has(uri) || isBelowAny(uri, leftOut)) continue;
    if (!ctx.roots.isTrackedUri(uri) || excludedUri(ctx, uri) || isBelowAny(uri, unlisted)) {
      result.current.set(uri, known);
      continue;
    }
    result.changed.push(uri);
  }
  return result;
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

function excludedUri(ctx: EngineContext, uri: string): boolean {
  const rest = uri.slice(uri.indexOf(':/') + 2);
  return rest !== '' && isExcludedPath(ctx, rest);
}
