// The watcher's core: Node's own `fs.watch` on every folder of the tracked roots (inotify on
// Linux). It runs on a thread of its own (watcher-thread.ts), where libuv reads all its watches
// through one inotify descriptor, so events reach it in the kernel's order; a barrier is then
// cheap and exact: create a file in a private folder watched on the same loop and wait for its
// event — every event of an earlier syscall has been read by then (measured here: 0.03 ms
// median, against ≥ 50 ms for @parcel/watcher, whose debounce delays every batch).
//
// inotify does not watch below a folder by itself: a folder created later is watched when its
// creation is followed (and marked to be walked whole, for what was made in it before its watch).
// libuv drops the kernel's overflow notice, so "more events since the last barrier than half
// the kernel queue holds" is taken for an overflow; a watch that cannot be added (the user's
// watch limit) or any watcher error makes the watcher unavailable: full scans from then on.
// A folder's watch dies with the folder, and a folder made again may get the same inode number:
// a folder named by a create, delete or move event is watched afresh, whatever its inode. A root
// has no watched parent: its identity (device, inode, birth time) is checked at every barrier,
// and a root replaced, moved or mounted over is watched afresh with a full scan.
// Events only note a path (coalesced per path); the names they created, removed or moved are
// looked at (lstat, watched afresh) once each at the barrier, so until then a removed folder's
// dead watch is still listed and `degraded` says so. libuv reads the inotify descriptor until it
// is empty, calling us for each event: a process renaming in a tight loop would keep the loop
// there for good. So a folder that raises more than a budget of events between two barriers has
// its watch closed and is marked to be walked whole by the next scan (its watch comes back at
// the next barrier); past the overflow count every watch is closed and the next scan is a full one.
import {
  type FSWatcher,
  type Stats,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { DirtyPath, TreeWatcher, WatchSpec } from './tree-watcher.js';
import { kernelWatchedInodes } from './kernel-watches.js';
import { ThreadTreeWatcher } from './watcher-thread.js';

/** Events one folder may raise between two barriers before its watch is closed until the next (walked whole instead). */
const FOLDER_EVENT_BUDGET = 1_000;
/** How long a barrier's own event may take before the watcher is taken for broken. */
const BARRIER_TIMEOUT_MS = 5_000;

function overflowAt(): number {
  try {
    const max = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    if (Number.isFinite(max) && max > 1) return Math.floor(max / 2);
  } catch {
    // Not Linux, or no procfs: the kernel's default.
  }
  return 8_192;
}

/** What tells a folder from one made again at the same path (the inode number alone may be reused). */
interface Identity {
  dev: number;
  ino: number;
  birthtimeMs: number;
}

const identityOf = (stats: Stats): Identity => ({ dev: stats.dev, ino: stats.ino, birthtimeMs: stats.birthtimeMs });
const sameIdentity = (a: Identity, b: Identity) =>
  a.dev === b.dev && a.ino === b.ino && a.birthtimeMs === b.birthtimeMs;

export class FsTreeWatcher implements TreeWatcher {
  private readonly watched = new Map<string, { handle: FSWatcher; id: Identity }>();
  /** Names a create, delete or move event named: looked at (lstat) at the next take, once each. */
  private toFollow = new Set<string>();
  /** Folders whose watch is in doubt (its handle closed, a root's own event): watched afresh at the next take. */
  private readonly inDoubt = new Set<string>();
  /** Events per folder since the last barrier (the storm budget). */
  private perFolder = new Map<string, number>();
  /** Folders whose watch a storm closed: watched again at the next take (walked whole meanwhile). */
  private readonly suspended = new Set<string>();
  /** Every watch closed by an overflow: the roots are watched again at the next take. */
  private allSuspended = false;
  /** Roots that are gone or cannot be watched now: why (the scans are full ones meanwhile). */
  private readonly rootTrouble = new Map<string, string>();
  private dirty = new Map<string, boolean>();
  private events = 0;
  /** Set when what happened cannot be told (the start, an overflow, a name no URI can hold). */
  private unknown = true;
  private failure: string | null = null;
  private readonly barrier: FSWatcher | null = null;
  private readonly pending = new Map<string, () => void>();
  private seq = 0;
  private readonly overflow: number;

  /** `overflow`: how many events since a barrier count as an overflow (tests make it small). */
  constructor(
    private readonly spec: WatchSpec,
    overflow = overflowAt(),
  ) {
    this.overflow = overflow;
    try {
      rmSync(spec.barrierDir, { recursive: true, force: true });
      mkdirSync(spec.barrierDir, { recursive: true });
      this.barrier = watch(spec.barrierDir, { persistent: true }, (_type, name) => this.onBarrier(name));
      this.barrier.unref();
      this.barrier.on('error', (e) => this.fail(`the barrier folder's watch failed (${(e as Error).message})`));
      for (const root of spec.roots) this.addTree(root);
    } catch (e) {
      this.fail(`it could not start (${(e as Error).message})`);
    }
  }

  unavailable(): string | null {
    return this.failure;
  }

  /**
   * Why part of the tree is not watched now (a root gone, a watch the kernel no longer holds), or
   * null: checked against the kernel's own list of watches. What it finds is watched afresh (and
   * scanned in full) at the next take.
   */
  degraded(): string | null {
    if (this.failure) return null;
    this.checkRoots();
    if (this.rootTrouble.size > 0) return [...this.rootTrouble.values()].join('; ');
    const kernel = kernelWatchedInodes();
    const dead = kernel ? [...this.watched].filter(([, { id }]) => !kernel.has(id.ino)).map(([dir]) => dir) : [];
    // A folder mounted over (or replaced unseen) keeps its old watch: its path names another folder now.
    const other = [...this.watched]
      .filter(([dir, { id }]) => !dead.includes(dir) && !this.stillIs(dir, id))
      .map(([dir]) => dir);
    for (const dir of [...dead, ...other]) this.inDoubt.add(dir);
    const said = (dirs: string[], what: string) =>
      `${dirs.length} folder${dirs.length === 1 ? '' : 's'} ${what} (${dirs[0]}${dirs.length > 1 ? ', …' : ''})`;
    const reasons = [
      ...(dead.length > 0 ? [said(dead, 'not watched by the kernel')] : []),
      ...(other.length > 0 ? [said(other, 'mounted over or replaced')] : []),
    ];
    return reasons.length === 0 ? null : `${reasons.join('; ')}; watched afresh at the next command`;
  }

  private stillIs(dir: string, id: Identity): boolean {
    try {
      const stats = lstatSync(dir, { throwIfNoEntry: false });
      return stats !== undefined && sameIdentity(identityOf(stats), id);
    } catch {
      return false;
    }
  }

  /** A folder the scans found a change in that no event named: watched afresh, and walked whole next time. */
  rewatch(abs: string): void {
    if (this.failure) return;
    let dir = abs;
    while (!this.spec.roots.includes(dir) && !this.isFolder(dir)) {
      const up = path.dirname(dir);
      if (up === dir) return;
      dir = up;
    }
    this.unwatchTree(dir);
    this.addTree(dir);
    this.mark(dir, true);
  }

  private isFolder(abs: string): boolean {
    try {
      return lstatSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      return false;
    }
  }

  async take(): Promise<DirtyPath[] | null> {
    if (this.failure || !this.barrier) return null;
    const name = `b${++this.seq}`;
    const file = path.join(this.spec.barrierDir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve) => {
      this.pending.set(name, resolve);
      timer = setTimeout(() => {
        this.fail('a barrier event did not arrive');
        resolve();
      }, BARRIER_TIMEOUT_MS);
    });
    // Referenced while it waits: nothing else may keep a script's loop alive for the answer.
    this.barrier.ref();
    try {
      writeFileSync(file, '');
      await seen;
    } catch (e) {
      this.fail(`the barrier file could not be written (${(e as Error).message})`);
    } finally {
      clearTimeout(timer);
      this.pending.delete(name);
      this.barrier?.unref();
      try {
        unlinkSync(file);
      } catch {
        // Already gone, or the folder with it: the next barrier uses another name.
      }
    }
    if (this.failure) return null;
    this.followAll();
    this.resume();
    this.checkRoots();
    for (const dir of this.inDoubt) this.rewatch(dir);
    this.inDoubt.clear();
    if (this.rootTrouble.size > 0) this.unknown = true;
    const known = !this.unknown;
    const dirty = [...this.dirty].map(([abs, tree]) => ({ abs, tree }));
    this.dirty = new Map();
    this.events = 0;
    this.unknown = false;
    return known ? dirty : null;
  }

  async close(): Promise<void> {
    const handles = [...this.watched.values()];
    this.watched.clear();
    for (const { handle } of handles) handle.close();
    this.barrier?.close();
    for (const resolve of this.pending.values()) resolve();
    rmSync(this.spec.barrierDir, { recursive: true, force: true });
  }

  private onBarrier(name: string | null): void {
    if (name) this.pending.get(name)?.();
  }

  private onEvent(dir: string, type: string, name: string | null): void {
    if (this.failure || this.allSuspended || this.suspended.has(dir)) return;
    if (++this.events >= this.overflow) {
      // As good as an overflow: a full scan costs no more than this many paths would.
      this.unknown = true;
      this.dirty.clear();
      this.suspendAll();
      return;
    }
    const inFolder = (this.perFolder.get(dir) ?? 0) + 1;
    this.perFolder.set(dir, inFolder);
    if (inFolder > FOLDER_EVENT_BUDGET) {
      this.suspend(dir);
      return;
    }
    if (name === null) {
      this.mark(dir, true);
      return;
    }
    // Not valid UTF-8 (decoded lossily): no URI names it, the full scan tells it apart.
    if (name.includes('\uFFFD')) this.unknown = true;
    const abs = path.join(dir, name);
    this.mark(abs, false);
    // An event of the folder itself (its mode, its removal) carries the folder's own name: a
    // root's own removal or move has no parent watch to tell it, so the root is in doubt.
    if (name === path.basename(dir)) {
      this.mark(dir, false);
      if (type === 'rename' && this.spec.roots.includes(dir)) this.inDoubt.add(dir);
    }
    // A name created, removed or moved: a folder there is watched afresh, one gone is let go.
    if (type === 'rename') this.toFollow.add(abs);
  }

  /** The names events said were created, removed or moved: each looked at once, however many events named it. */
  private followAll(): void {
    const names = this.toFollow;
    this.toFollow = new Set();
    for (const abs of names) if (!this.failure) this.follow(abs);
  }

  /** A folder over its event budget: its watch closed until the next take, the folder walked whole. */
  private suspend(dir: string): void {
    const known = this.watched.get(dir);
    this.mark(dir, true);
    if (!known) return;
    this.watched.delete(dir);
    known.handle.close();
    this.suspended.add(dir);
  }

  /** Past the overflow count: every watch closed until the next take (a full scan then). */
  private suspendAll(): void {
    this.allSuspended = true;
    this.toFollow.clear();
    const handles = [...this.watched.values()];
    this.watched.clear();
    for (const { handle } of handles) handle.close();
  }

  /** At a take: what a storm closed is watched again (what it held is walked by the coming scan). */
  private resume(): void {
    this.perFolder = new Map();
    if (this.allSuspended) {
      this.allSuspended = false;
      this.suspended.clear();
      for (const root of this.spec.roots) this.addTree(root);
      return;
    }
    for (const dir of this.suspended) {
      this.addTree(dir);
      this.mark(dir, true);
    }
    this.suspended.clear();
  }

  /** Each root as it is now against the one watched: gone, replaced, moved or mounted over is watched afresh. */
  private checkRoots(): void {
    for (const root of this.spec.roots) {
      // A storm closed its watch: it comes back (and is checked) at the next take, not before.
      if (this.allSuspended || this.suspended.has(root)) continue;
      let stats: Stats | undefined;
      try {
        stats = lstatSync(root, { throwIfNoEntry: false });
      } catch (e) {
        this.rootTrouble.set(root, `the root ${root} cannot be read (${(e as Error).message})`);
        continue;
      }
      if (!stats?.isDirectory()) {
        if (this.watched.has(root)) this.unwatchTree(root);
        if (!this.rootTrouble.has(root)) this.spec.log(`the root ${root} is gone: its commands are scanned in full`);
        this.rootTrouble.set(root, `the root ${root} is gone`);
        continue;
      }
      const known = this.watched.get(root);
      if (known && sameIdentity(known.id, identityOf(stats)) && !this.rootTrouble.has(root)) continue;
      if (known || this.rootTrouble.has(root))
        this.spec.log(
          `the root ${root} was replaced, moved or mounted over: watched afresh, the next scan is a full one`,
        );
      this.rootTrouble.delete(root);
      this.unwatchTree(root);
      this.addTree(root);
      this.unknown = true;
      if (!this.watched.has(root) && !this.failure) this.rootTrouble.set(root, `the root ${root} cannot be watched`);
    }
  }

  private mark(abs: string, tree: boolean): void {
    if (this.unknown && this.events >= this.overflow) return;
    if (tree || !this.dirty.has(abs)) this.dirty.set(abs, tree || this.dirty.get(abs) === true);
  }

  private follow(abs: string): void {
    if (this.spec.skip(abs)) return;
    let stats;
    try {
      stats = lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      stats = undefined;
    }
    // Watched afresh even when it looks the same: a folder removed and made again may get the
    // same inode number (ext4 reuses it at once), and the old watch died with the old folder.
    this.unwatchTree(abs);
    if (stats?.isDirectory()) {
      this.addTree(abs);
      this.mark(abs, true);
    }
  }

  /** Watches `abs`, then lists it: a folder made in it before its watch is found by the listing. */
  private addTree(abs: string): void {
    if (this.failure || this.watched.has(abs) || this.spec.skip(abs)) return;
    let id: Identity;
    let handle: FSWatcher;
    try {
      const stats = lstatSync(abs);
      if (!stats.isDirectory()) return;
      id = identityOf(stats);
      handle = watch(abs, { persistent: false }, (type, name) => this.onEvent(abs, type, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Gone already (its parent's event says so), or a folder it may not read (the scan says so).
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') return;
      this.fail(
        code === 'ENOSPC'
          ? 'the inotify watch limit is reached (fs.inotify.max_user_watches)'
          : `a folder could not be watched (${(e as Error).message})`,
      );
      return;
    }
    handle.on('error', (e) => this.fail(`a folder's watch failed (${(e as Error).message})`));
    // Closed other than by us (unwatchTree deletes it first): watched afresh at the next take.
    handle.on('close', () => {
      if (this.watched.get(abs)?.handle === handle) this.inDoubt.add(abs);
    });
    this.watched.set(abs, { handle, id });
    let children;
    try {
      children = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const child of children) if (child.isDirectory()) this.addTree(path.join(abs, child.name));
  }

  private unwatchTree(abs: string): void {
    // Nothing is watched below a folder that is not (a file's event costs no walk of the watches).
    if (!this.watched.has(abs)) return;
    const below = abs + path.sep;
    for (const [dir, { handle }] of this.watched) {
      if (dir !== abs && !dir.startsWith(below)) continue;
      this.watched.delete(dir);
      handle.close();
    }
  }

  private fail(reason: string): void {
    if (this.failure) return;
    this.failure = reason;
    this.spec.log(`the filesystem watcher is unavailable: ${reason}; every command is scanned in full`);
    const handles = [...this.watched.values()];
    this.watched.clear();
    for (const { handle } of handles) handle.close();
    for (const resolve of this.pending.values()) resolve();
  }
}

/**
 * The service's watcher: `fs.watch` where it is inotify (Linux), on the watcher thread when the
 * spec can travel there (its rules); elsewhere none (full scans).
 */
export function fsTreeWatcher(spec: WatchSpec): TreeWatcher | null {
  if (process.platform !== 'linux') return null;
  return spec.rules ? new ThreadTreeWatcher(spec) : new FsTreeWatcher(spec);
}
