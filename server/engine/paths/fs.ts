// The only module through which the engine touches the filesystem. Every operation passes
// through `op()`, which calls an optional `beforeOp` hook first: tests use it to count
// operations, crash the engine after the N-th one, or inject errno faults (ENOSPC, EIO…).
// A path inside a root is reached beneath it (beneath.ts): through the handle of its parent,
// walked down from the root, so a folder swapped for a symlink meanwhile is never followed.
import * as fsp from 'node:fs/promises';
import fs, { constants, realpathSync, type Stats } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { at, Beneath, relabel } from './beneath.js';
import { type AtomicOptions, type AtomicSeam, createAtomic, HeldDirs, type WritableTarget } from './atomic-write.js';
import { chmodNoFollow, copyTree, removeTree } from './beneath-ops.js';
import { type InPlaceOptions, overwriteInPlace } from './overwrite.js';
import { chunksOf, openForRead, readWhole } from './file-read.js';
import { LinkOnPathError } from '../errors.js';
import { ScanDir } from './scan-dir.js';

import type { BeforeOp, FsOpName } from './fs-ops.js';
export type { BeforeOp, FsOpName } from './fs-ops.js';

/** Temp files carry this prefix so a later open can recognise and remove leftovers. */
export const TEMP_PREFIX = '.turnback-tmp-';

export function tempName(): string {
  return `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`;
}

export function tempNameIn(dir: string): string {
  return path.join(dir, tempName());
}

export function isNotFound(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/** Synchronous realpath for path computations done before the engine exists. */
export function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export type { WritableTarget } from './atomic-write.js';

const fsyncFd = promisify(fs.fsync);
const unlinkAsync = promisify(fs.unlink);
const execFileAsync = promisify(execFile);

/** Non-blocking: whatever a FIFO swapped in at the name, the open answers at once. */
const SYNC_OPEN = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export class EngineFs {
  beforeOp: BeforeOp | undefined;
  private readonly beneath = new Beneath();

  constructor(options: { beforeOp?: BeforeOp } = {}) {
    this.beforeOp = options.beforeOp;
  }

  /** Paths inside `real` are reached beneath it from now on; a link read there may not lead into `closed`. */
  addRoot(real: string, closed: string[] = []): void {
    this.beneath.addRoot(real, closed);
  }

  private async op<T>(name: FsOpName, target: string, run: () => Promise<T>): Promise<T> {
    if (this.beforeOp) await this.beforeOp(name, target);
    return run();
  }

  /**
   * Runs `run` on the path a call uses for `abs`: below a root, `<parent handle>/<name>`; the root
   * itself and paths outside every root (the engine's store, its lock) as they are. `confirm`:
   * after `run` placed something, the parent must still be where `abs` says, or it is not in place.
   */
  private via<T>(abs: string, run: (through: string, dirFd: number | null) => T, confirm = false): T {
    const root = this.beneath.rootOf(abs);
    if (root === null || root === abs) return run(abs, null);
    return this.beneath.inParent(root, abs, (dirFd, name) => {
      const through = at(dirFd, name);
      let result: T;
      try {
        result = run(through, dirFd);
      } catch (e) {
        throw relabel(relabel(e, through, abs), at(dirFd), path.dirname(abs));
      }
      if (confirm) this.beneath.confirm(root, dirFd, path.dirname(abs));
      return result;
    });
  }

  /** `via` for a call that awaits with the handle (on the thread pool); calls in one folder at once share its handle. */
  private async viaAsync<T>(
    abs: string,
    run: (through: string, dirFd: number | null) => Promise<T>,
    confirm = false,
  ): Promise<T> {
    const root = this.beneath.rootOf(abs);
    if (root === null || root === abs) return run(abs, null);
    const dir = path.dirname(abs);
    return this.beneath.inDirAsync(root, dir, async (dirFd) => {
      const through = at(dirFd, path.basename(abs));
      let result: T;
      try {
        result = await run(through, dirFd);
      } catch (e) {
        throw relabel(relabel(e, through, abs), at(dirFd), dir);
      }
      if (confirm) this.beneath.confirm(root, dirFd, dir);
      return result;
    });
  }

  /** Runs `run` on the path a call uses for the directory `abs` itself (its own handle, below a root). */
  private inDir<T>(abs: string, run: (through: string) => T): T {
    const root = this.beneath.rootOf(abs);
    if (root === null) return run(abs);
    return this.beneath.inDir(root, abs, (fd) => {
      try {
        return run(at(fd));
      } catch (e) {
        throw relabel(e, at(fd), abs);
      }
    });
  }

  /** What a read of `abs` opens: a link at its end is followed only while it stays beneath the root. */
  private readTarget(abs: string): string {
    const root = this.beneath.rootOf(abs);
    if (root === null || root === abs) return abs;
    const isLink = this.via(
      abs,
      (through) => fs.lstatSync(through, { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
    );
    return isLink ? this.beneath.followFinal(root, abs) : abs;
  }

  // Metadata calls and small reads/writes run synchronously: a round trip through the thread
  // pool costs 5-10x the call itself, and a captured write makes a dozen of them. Only fsync
  // (long, and cheaper side by side) and whole-tree copies or removals stay asynchronous, and
  // so do a restore's creates and renames (`viaAsync`), which wait on the journal and overlap.
  lstat(p: string): Promise<Stats> {
    return this.op('lstat', p, async () => this.via(p, (q) => fs.lstatSync(q)));
  }
  /** Follows a link at the end of `p`, beneath its root only (the root itself is looked at as it is). */
  stat(p: string): Promise<Stats> {
    return this.op('stat', p, async () => {
      const root = this.beneath.rootOf(p);
      if (root === null) return fs.statSync(p);
      // One lstat; only a link is followed, and its target looked at without following anything more.
      const own = this.via(p, (q) => fs.lstatSync(q));
      if (root === p || !own.isSymbolicLink()) return own;
      return this.via(this.beneath.followFinal(root, p), (q) => fs.lstatSync(q));
    });
  }

  /** A directory of a scan, listed and read through its own handle (see scan-dir.ts). */
  openScanDir(abs: string): ScanDir {
    const root = this.beneath.rootOf(abs);
    if (root === null) throw new Error(`${abs} lies in no root`);
    return new ScanDir(this.seam, abs, this.beneath.openDir(root, abs));
  }

  private readonly seam = {
    op: <T>(name: FsOpName, target: string, run: () => Promise<T>) => this.op(name, target, run),
    watched: () => this.beforeOp !== undefined,
  };

  /** lstat that answers null for a missing path. */
  async lstatOrNull(p: string): Promise<Stats | null> {
    try {
      return await this.lstat(p);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  /**
   * Whole-file read of the engine's own small files outside the roots (the lock, read before any
   * root is registered). Paths inside a root are read with `readSmallFile` or `readChunks`.
   */
  readFile(p: string): Promise<Buffer> {
    return this.op('readFile', p, () => fsp.readFile(p));
  }
  /** Whole-file read of a file known to be small, at most `limit` bytes (file-read.ts); a link at the end is ELOOP. */
  readSmallFile(p: string, limit: number): Promise<Buffer> {
    return this.op('readFile', p, async () => this.via(p, (q) => readWhole(q, limit)));
  }
  readlink(p: string): Promise<string> {
    return this.op('readlink', p, async () => this.via(p, (q) => fs.readlinkSync(q)));
  }
  /** The kernel's realpath (libc): a component swapped meanwhile cannot make it fail half-way (EINVAL). */
  realpath(p: string): Promise<string> {
    return this.op('realpath', p, async () => fs.realpathSync.native(p));
  }
  readdir(p: string): Promise<string[]> {
    return this.op('readdir', p, async () => this.inDir(p, (q) => fs.readdirSync(q)));
  }
  mkdir(p: string, mode?: number): Promise<void> {
    return this.op('mkdir', p, async () => {
      this.via(
        p,
        (q) => {
          fs.mkdirSync(q, { mode });
        },
        true,
      );
    });
  }
  mkdirp(p: string): Promise<void> {
    const root = this.beneath.rootOf(p);
    // Asynchronous outside the roots: the recursive form can spin on some special paths (under /proc), and must not freeze the process.
    if (root === null)
      return this.op('mkdir', p, async () => {
        await fsp.mkdir(p, { recursive: true });
      });
    return this.op('mkdir', p, async () => this.beneath.makeDirs(root, p));
  }
  rmdir(p: string): Promise<void> {
    return this.op('rmdir', p, async () => this.via(p, (q) => fs.rmdirSync(q)));
  }
  /** `overlap`: on the thread pool, for a caller removing many files side by side (as a restore's creates). */
  unlink(p: string, options: { overlap?: boolean } = {}): Promise<void> {
    if (options.overlap) return this.op('unlink', p, () => this.viaAsync(p, (q) => unlinkAsync(q)));
    return this.op('unlink', p, async () => this.via(p, (q) => fs.unlinkSync(q)));
  }
  rmrf(p: string): Promise<void> {
    return this.op('rm', p, async () => {
      const done = this.via(p, (_through, dirFd) => {
        if (dirFd === null) return false;
        removeTree(dirFd, path.basename(p), p);
        return true;
      });
      if (!done) await fsp.rm(p, { recursive: true, force: true });
    });
  }
  rename(from: string, to: string): Promise<void> {
    return this.op('rename', from, async () =>
      this.via(from, (source) => this.via(to, (target) => fs.renameSync(source, target), true)),
    );
  }
  symlink(target: string, p: string): Promise<void> {
    return this.op('symlink', p, async () =>
      this.via(
        p,
        (q) => {
          fs.symlinkSync(target, q);
          if (fs.readlinkSync(q) !== target) throw new LinkOnPathError();
        },
        true,
      ),
    );
  }
  /** Through a handle on the inode itself; a file with other hard links is replaced by a copy (beneath-ops.ts). */
  chmod(p: string, mode: number): Promise<void> {
    return this.op('chmod', p, async () =>
      this.via(
        p,
        (q, dirFd) => {
          if (dirFd === null) fs.chmodSync(q, mode);
          else chmodNoFollow(dirFd, path.basename(p), mode, tempName());
        },
        true,
      ),
    );
  }
  cpRecursive(from: string, to: string): Promise<void> {
    return this.op('cp', from, async () => {
      const done = this.via(from, (_source, fromFd) =>
        this.via(
          to,
          (_target, toFd) => {
            if (fromFd === null || toFd === null) return false;
            copyTree(fromFd, path.basename(from), toFd, path.basename(to), from);
            return true;
          },
          true,
        ),
      );
      if (!done) await fsp.cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
    });
  }

  /**
   * Reads a regular file in bounded chunks (never the whole file at once), at most `limit`
   * bytes in all (file-read.ts); a link at the end is ELOOP, unless `followLink` (a read by
   * URI): then it is followed while it stays beneath the root.
   */
  async *readChunks(
    p: string,
    limit: number,
    options: { followLink?: boolean; chunkSize?: number } = {},
  ): AsyncGenerator<Buffer> {
    const fd = await this.op('read', p, async () =>
      this.via(options.followLink ? this.readTarget(p) : p, (q) => openForRead(q)),
    );
    yield* chunksOf(fd, p, options.chunkSize ?? 1 << 20, limit);
  }

  async fsyncFile(p: string): Promise<void> {
    await this.op('fsync', p, async () => {
      const fd = this.via(p, (q) => fs.openSync(q, SYNC_OPEN));
      try {
        await fsyncFd(fd);
      } finally {
        fs.closeSync(fd);
      }
    });
  }

  /**
   * Flushes everything written to the filesystem holding `p` (syncfs, through coreutils'
   * `sync -f`): for many files at once, one call beats an fsync per file several times over.
   */
  async syncFilesystem(p: string): Promise<void> {
    await this.op('fsync', p, async () => {
      await execFileAsync('sync', ['-f', p], { timeout: 60_000 });
    });
  }

  async fsyncDir(dir: string): Promise<void> {
    await this.fsyncFile(dir);
  }

  /** An atomic write beneath the root: temp file made O_EXCL | O_NOFOLLOW, verified in place (atomic-write.ts). */
  createAtomic(dest: string, mode: number, options: AtomicOptions = {}): Promise<WritableTarget> {
    return createAtomic(this.atomicSeam, dest, mode, tempNameIn(path.dirname(dest)), options);
  }

  /**
   * The file at `dest` written over in place (overwrite.ts), not flushed: NotInPlaceError when it
   * may not be, and it is left as it is; CutShortError when the write began and did not end.
   */
  overwrite(dest: string, data: Uint8Array, mode: number, options: InPlaceOptions): Promise<void> {
    return overwriteInPlace(this.atomicSeam, dest, data, mode, options);
  }

  private readonly atomicSeam: AtomicSeam = {
    op: (name, target, run) => this.op(name, target, run),
    via: (abs, run, confirm) => this.via(abs, run, confirm),
    viaAsync: (abs, run, confirm) => this.viaAsync(abs, run, confirm),
    held: new HeldDirs(),
  };

  /** Atomic write of bytes held in memory: temp file, fsync, chmod, rename. */
  async writeFileAtomic(dest: string, data: Uint8Array, mode: number): Promise<void> {
    const target = await this.createAtomic(dest, mode);
    try {
      await target.write(data);
    } catch (e) {
      await target.abort();
      throw e;
    }
    await target.commit();
  }

  /** Plain (non-atomic) write for the engine's own small files, e.g. the lock. */
  writeFileExclusive(p: string, data: string): Promise<void> {
    return this.op('writeFile', p, () => fsp.writeFile(p, data, { flag: 'wx', mode: 0o600 }));
  }
}
