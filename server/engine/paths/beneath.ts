// Path resolution beneath a root that holds while another process swaps components. The engine
// resolves URIs to real paths up front, so when an operation runs every folder between the root
// and the path must still be a real directory. A directory is opened by its path in one call and
// kept only if the kernel's own path of the handle (/proc/self/fd/<fd>) is exactly that real
// path: a link followed on the way, or a folder moved meanwhile, shows as another path. Otherwise
// the walk decides: down from the root one component at a time through handles opened with
// O_DIRECTORY | O_NOFOLLOW, where a component that is a symlink at that moment is a race
// (`LinkOnPathError`), never followed. The operation itself then acts on
// `/proc/self/fd/<handle>/<name>`, which the kernel resolves from the directory the handle holds,
// wherever that directory is by then: one name, nothing above it looked up again.
// (Measured against the walk alone and against openat2(RESOLVE_BENEATH) through an FFI: the
// checked open costs about half the walk at depth 3 and does not grow with depth; openat2 was no
// faster end to end, as the calls through /proc dominate.)
import fs, { constants } from 'node:fs';
import path from 'node:path';
import { LinkOnPathError } from '../errors.js';
import { HeldHandles, stillAt } from './held-handles.js';
import { at, closeQuietly, type Name } from './proc-fd.js';
import { projectDirMode } from './project-umask.js';

export { at, closeQuietly, type Name };

/** Linux's O_PATH (node does not export it): a handle that names a directory without opening it for reading. */
export const O_PATH = 0o10000000;
// (libuv opens every file O_CLOEXEC already.)
const DIR_HANDLE = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Walks made before a symlink met on the way is reported (each from the root, never through it). */
const WALK_TRIES = 4;

/** Errors say the path the engine asked for, not the handle path the call went through. */
export function relabel(e: unknown, through: Name, logical: Name): unknown {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err !== 'object' || err instanceof LinkOnPathError) return e;
  const from = String(through);
  const to = String(logical);
  if (err.path === from) err.path = to;
  if ((err as { dest?: string }).dest === from) (err as { dest?: string }).dest = to;
  if (typeof err.message === 'string') err.message = err.message.split(from).join(to);
  return err;
}

/** Handle of the directory `name` inside the directory `dirFd` holds; a symlink there is a race. */
export function openDirAt(dirFd: number, name: Name, logical: Name): number {
  const through = at(dirFd, name);
  try {
    return fs.openSync(through, DIR_HANDLE);
  } catch (e) {
    if (swappedAway(e, through)) throw new LinkOnPathError(String(logical));
    throw relabel(e, through, logical);
  }
}

/** The same, making the directory first when it is missing (one made meanwhile by another is taken as it is). */
function openOrMakeDirAt(dirFd: number, name: string, logical: string): number {
  try {
    return openDirAt(dirFd, name, logical);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    let made = false;
    try {
      fs.mkdirSync(at(dirFd, name));
      made = true;
    } catch (m) {
      if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw relabel(m, at(dirFd, name), logical);
    }
    const fd = openDirAt(dirFd, name, logical);
    const mode = made ? projectDirMode() : null;
    // Through the handle's /proc name: an O_PATH handle takes no fchmod, and the name cannot be swapped.
    if (mode !== null) fs.chmodSync(at(fd), mode);
    return fd;
  }
}

/**
 * Whether opening a directory failed because something swaps it: the name holds a symlink, or
 * held one a moment ago and a directory again now. Only a plain file there is a real ENOTDIR.
 */
function swappedAway(e: unknown, through: Name): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'ENOTDIR' && code !== 'ELOOP') return false;
  const now = fs.lstatSync(through, { throwIfNoEntry: false });
  return now !== undefined && (now.isSymbolicLink() || now.isDirectory());
}

/**
 * The directory at `dir` opened in one call, kept only when the kernel says the handle's
 * directory is at exactly `dir` now (its path from /proc/self/fd): `dir` is a real path, so
 * any link followed on the way, or a folder moved meanwhile, shows as another path. null: not
 * verified (or not openable), and the walk decides.
 */
function openVerified(dir: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(dir, O_PATH | constants.O_DIRECTORY);
  } catch {
    return null;
  }
  try {
    if (fs.readlinkSync(at(fd)) === dir) return fd;
  } catch {
    /* no /proc: walk */
  }
  closeQuietly(fd);
  return null;
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

interface RootEntry {
  real: string;
  /** Subtrees a link followed from this root may not lead into (the engine's own data). */
  closed: string[];
}

/** A folder's handle lent to calls that overlap (on the thread pool): given back when the last is done. */
interface Shared {
  fd: number;
  users: number;
}

export class Beneath {
  private roots: RootEntry[] = [];
  /** Handles of folders just used, lent again only while still at their path (held-handles.ts). */
  private readonly held = new HeldHandles();
  /** Handles out with calls still running, by folder: a call beside them in the same folder shares one. */
  private readonly shared = new Map<string, Shared>();

  /** Paths inside `real` resolve beneath it from now on (registering again only updates `closed`). */
  addRoot(real: string, closed: string[] = []): void {
    this.roots = [...this.roots.filter((r) => r.real !== real), { real, closed }].sort(
      (a, b) => b.real.length - a.real.length,
    );
  }

  /** The innermost root holding `abs`, or null for a path no root holds (the engine's store, its lock). */
  rootOf(abs: string): string | null {
    for (const r of this.roots) if (isInside(abs, r.real)) return r.real;
    return null;
  }

  /**
   * Handle of the directory `dir` (the root itself or a directory inside it), walked down from
   * the root. A walk that meets a symlink is made again from the top a few times (a folder
   * being swapped back and forth is often a directory again a moment later); a link that stays
   * is the race error.
   */
  openDir(root: string, dir: string): number {
    const direct = openVerified(dir);
    if (direct !== null) return direct;
    for (let attempt = 1; ; attempt++) {
      try {
        return this.walk(root, dir);
      } catch (e) {
        if (!(e instanceof LinkOnPathError) || attempt === WALK_TRIES) throw e;
      }
    }
  }

  /**
   * Handle of `dir`, walked down from the root one component at a time. `create`: a missing
   * directory is made through its parent's handle on the way (`mkdir -p`).
   */
  private walk(root: string, dir: string, create = false): number {
    let fd = this.openRoot(root);
    try {
      if (dir === root) return fd;
      let walked = root;
      for (const segment of dir.slice(root.length + 1).split(path.sep)) {
        walked = `${walked}${path.sep}${segment}`;
        const next = create ? openOrMakeDirAt(fd, segment, walked) : openDirAt(fd, segment, walked);
        fs.closeSync(fd);
        fd = next;
      }
      return fd;
    } catch (e) {
      closeQuietly(fd);
      throw e;
    }
  }

  /** `mkdir -p` beneath the root: one walk (never made again), each missing directory made through its parent's handle. */
  makeDirs(root: string, dir: string): void {
    closeQuietly(this.walk(root, dir, true));
  }

  /** Runs `run` with the handle of the directory holding `abs` (below `root`) and `abs`'s last name. */
  inParent<T>(root: string, abs: string, run: (dirFd: number, name: string) => T): T {
    return this.inDir(root, path.dirname(abs), (fd) => run(fd, path.basename(abs)));
  }

  /**
   * Runs `run` with the handle of the directory `dir` (the root or a directory inside it): one
   * kept from a call just before in the same folder while it is still at `dir`, or opened now.
   */
  inDir<T>(root: string, dir: string, run: (dirFd: number) => T): T {
    const fd = this.held.take(dir) ?? this.openDir(root, dir);
    try {
      return run(fd);
    } finally {
      this.held.give(dir, fd);
    }
  }

  /**
   * The same for a call that awaits while it holds the handle (a create or rename on the thread
   * pool, so many overlap): calls in the same folder at once share one handle, each lent it only
   * after the same check (its kernel path is still `dir`); a handle that fails it is not shared
   * again, and the call opens the folder afresh.
   */
  async inDirAsync<T>(root: string, dir: string, run: (dirFd: number) => Promise<T>): Promise<T> {
    let entry = this.shared.get(dir);
    if (entry && stillAt(entry.fd, dir)) entry.users++;
    else {
      if (entry) this.shared.delete(dir);
      entry = { fd: this.held.take(dir) ?? this.openDir(root, dir), users: 1 };
      this.shared.set(dir, entry);
    }
    try {
      return await run(entry.fd);
    } finally {
      if (--entry.users === 0) {
        if (this.shared.get(dir) === entry) {
          this.shared.delete(dir);
          this.held.give(dir, entry.fd);
        } else closeQuietly(entry.fd);
      }
    }
  }

  /**
   * The directory `dir` is still the one `fd` holds: walked again from the root, after an
   * operation placed something through the handle, so what it placed is where it was asked for.
   */
  confirm(root: string, fd: number, dir: string): void {
    // The kernel's path of the held directory is `dir`: it is the directory a walk would reach.
    if (stillAt(fd, dir)) return;
    const now = this.openDir(root, dir);
    try {
      const held = fs.fstatSync(fd);
      const found = fs.fstatSync(now);
      if (held.ino !== found.ino || held.dev !== found.dev) throw new LinkOnPathError();
    } finally {
      closeQuietly(now);
    }
  }

  /**
   * The real path a read of `abs` reaches when `abs` is a link: accepted only while it stays
   * beneath the root and out of the engine's data (openat2 RESOLVE_BENEATH). The caller then
   * reads that real path without following anything, so a link changed since is a race.
   */
  followFinal(root: string, abs: string): string {
    const entry = this.roots.find((r) => r.real === root)!;
    const real = fs.realpathSync.native(abs);
    if (!isInside(real, root) || entry.closed.some((c) => isInside(real, c))) throw new LinkOnPathError();
    return real;
  }

  private openRoot(root: string): number {
    try {
      return fs.openSync(root, DIR_HANDLE);
    } catch (e) {
      if (swappedAway(e, root)) throw new LinkOnPathError(root);
      throw e;
    }
  }
}
