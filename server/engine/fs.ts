// The only module through which the engine touches the filesystem. Every operation passes
// through `op()`, which calls an optional `beforeOp` hook first: tests use it to count
// operations, crash the engine after the N-th one, or inject errno faults (ENOSPC, EIO…).
// A path inside a root is reached beneath it (beneath.ts): through the handle of its parent,
// walked down from the root, so a folder swapped for a symlink meanwhile is never followed.
import * as fsp from 'node:fs/promises';
import fs, { constants, createReadStream, realpathSync, type Stats } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { at, Beneath, closeQuietly, O_PATH, relabel } from './beneath.js';
import { chmodNoFollow, copyTree, CREATE, openForRead, readNoFollow, removeTree } from './beneath-ops.js';
import { LinkOnPathError } from './errors.js';
import { ScanDir } from './scan-dir.js';

export type FsOpName =
  | 'lstat' | 'stat' | 'readFile' | 'readlink' | 'realpath' | 'readdir' | 'mkdir' | 'rmdir'
  | 'unlink' | 'rm' | 'rename' | 'symlink' | 'chmod' | 'writeFile' | 'open' | 'write'
  | 'fsync' | 'close' | 'read' | 'copyFile' | 'cp';

export type BeforeOp = (op: FsOpName, target: string) => void | Promise<void>;

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
  try { return realpathSync(p); } catch { return path.resolve(p); }
}

export interface WritableTarget {
  /** The temp file's path. */
  readonly temp: string;
  write(chunk: Uint8Array): Promise<void>;
  /** fsync, chmod and close: the bytes are safe, nothing is visible yet. Removes the temp file on failure. */
  prepare(): Promise<void>;
  /** Prepares (when not done yet) and renames into place (`dest` given here when only known at the end). */
  commit(dest?: string): Promise<void>;
  /** close and remove the temp file. */
  abort(): Promise<void>;
}

const fsyncFd = promisify(fs.fsync);
const execFileAsync = promisify(execFile);

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
}

const readFd = promisify(fs.readFile) as (fd: number) => Promise<Buffer>;
const SYNC_OPEN = constants.O_RDONLY | constants.O_NOFOLLOW;
/** Temp files' directories held open at once at most (a rollback of many files stages them all before placing). */
const HELD_DIRS = 512;

export class EngineFs {
  beforeOp: BeforeOp | undefined;
  private readonly beneath = new Beneath();
  private heldDirs = 0;

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
      try { result = run(through, dirFd); } catch (e) { throw relabel(relabel(e, through, abs), at(dirFd), path.dirname(abs)); }
      if (confirm) this.beneath.confirm(root, dirFd, path.dirname(abs));
      return result;
    });
  }

  /** Runs `run` on the path a call uses for the directory `abs` itself (its own handle, below a root). */
  private inDir<T>(abs: string, run: (through: string) => T): T {
    const root = this.beneath.rootOf(abs);
    if (root === null) return run(abs);
    const fd = this.beneath.openDir(root, abs);
    try { return run(at(fd)); } catch (e) { throw relabel(e, at(fd), abs); } finally { closeQuietly(fd); }
  }

  /** What a read of `abs` opens: a link at its end is followed only while it stays beneath the root. */
  private readTarget(abs: string): string {
    const root = this.beneath.rootOf(abs);
    if (root === null || root === abs) return abs;
    const isLink = this.via(abs, (through) => fs.lstatSync(through, { throwIfNoEntry: false })?.isSymbolicLink() ?? false);
    return isLink ? this.beneath.followFinal(root, abs) : abs;
  }

  // Metadata calls and small reads/writes run synchronously: a round trip through the thread
  // pool costs 5-10x the call itself, and a captured write makes a dozen of them. Only fsync
  // (long, and cheaper side by side) and whole-tree copies or removals stay asynchronous.
  lstat(p: string): Promise<Stats> { return this.op('lstat', p, async () => this.via(p, (q) => fs.lstatSync(q))); }
  /** Follows a link at the end of `p`, beneath its root only. */
  stat(p: string): Promise<Stats> {
    return this.op('stat', p, async () => (this.beneath.rootOf(p) === null ? fs.statSync(p) : this.via(this.readTarget(p), (q) => fs.lstatSync(q))));
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
    try { return await this.lstat(p); } catch (e) { if (isNotFound(e)) return null; throw e; }
  }

  /** Whole-file read: asynchronous, as the file may be big (callers read small files with `readSmallFile`). Follows a link at the end beneath the root. */
  readFile(p: string): Promise<Buffer> {
    return this.op('readFile', p, async () => {
      if (this.beneath.rootOf(p) === null) return fsp.readFile(p);
      const fd = this.via(this.readTarget(p), (q) => openForRead(q));
      try { return await readFd(fd); } finally { fs.closeSync(fd); }
    });
  }
  /** Whole-file read of a file known to be small (at most about a megabyte); a link at the end is ELOOP. */
  readSmallFile(p: string): Promise<Buffer> { return this.op('readFile', p, async () => this.via(p, (q) => readNoFollow(q))); }
  readlink(p: string): Promise<string> { return this.op('readlink', p, async () => this.via(p, (q) => fs.readlinkSync(q))); }
  /** The kernel's realpath (libc): a component swapped meanwhile cannot make it fail half-way (EINVAL). */
  realpath(p: string): Promise<string> { return this.op('realpath', p, async () => fs.realpathSync.native(p)); }
  readdir(p: string): Promise<string[]> { return this.op('readdir', p, async () => this.inDir(p, (q) => fs.readdirSync(q))); }
  mkdir(p: string, mode?: number): Promise<void> {
    return this.op('mkdir', p, async () => { this.via(p, (q) => { fs.mkdirSync(q, { mode }); }, true); });
  }
  mkdirp(p: string): Promise<void> {
    const root = this.beneath.rootOf(p);
    // Asynchronous outside the roots: the recursive form can spin on some special paths (under /proc), and must not freeze the process.
    if (root === null) return this.op('mkdir', p, async () => { await fsp.mkdir(p, { recursive: true }); });
    return this.op('mkdir', p, async () => this.beneath.makeDirs(root, p));
  }
  rmdir(p: string): Promise<void> { return this.op('rmdir', p, async () => this.via(p, (q) => fs.rmdirSync(q))); }
  unlink(p: string): Promise<void> { return this.op('unlink', p, async () => this.via(p, (q) => fs.unlinkSync(q))); }
  rmrf(p: string): Promise<void> {
    return this.op('rm', p, async () => {
      const done = this.via(p, (_through, dirFd) => { if (dirFd === null) return false; removeTree(dirFd, path.basename(p), p); return true; });
      if (!done) await fsp.rm(p, { recursive: true, force: true });
    });
  }
  rename(from: string, to: string): Promise<void> {
    return this.op('rename', from, async () => this.via(from, (source) => this.via(to, (target) => fs.renameSync(source, target), true)));
  }
  symlink(target: string, p: string): Promise<void> {
    return this.op('symlink', p, async () => this.via(p, (q) => {
      fs.symlinkSync(target, q);
      if (fs.readlinkSync(q) !== target) throw new LinkOnPathError();
    }, true));
  }
  /** Through a handle on the inode itself; a file with other hard links is replaced by a copy (beneath-ops.ts). */
  chmod(p: string, mode: number): Promise<void> {
    return this.op('chmod', p, async () => this.via(p, (q, dirFd) => {
      if (dirFd === null) fs.chmodSync(q, mode);
      else chmodNoFollow(dirFd, path.basename(p), mode, tempName());
    }, true));
  }
  cpRecursive(from: string, to: string): Promise<void> {
    return this.op('cp', from, async () => {
      const done = this.via(from, (_source, fromFd) => this.via(to, (_target, toFd) => {
        if (fromFd === null || toFd === null) return false;
        copyTree(fromFd, path.basename(from), toFd, path.basename(to), from);
        return true;
      }, true));
      if (!done) await fsp.cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
    });
  }

  /**
   * Reads a file in bounded chunks (never the whole file at once); a link at the end is ELOOP,
   * unless `followLink` (a read by URI): then it is followed while it stays beneath the root.
   */
  async *readChunks(p: string, chunkSize = 1 << 20, options: { followLink?: boolean } = {}): AsyncGenerator<Buffer> {
    const fd = await this.op('read', p, async () => this.via(options.followLink ? this.readTarget(p) : p, (q) => openForRead(q)));
    const stream = createReadStream(p, { fd, highWaterMark: chunkSize });
    for await (const chunk of stream) yield chunk as Buffer;
  }

  async fsyncFile(p: string): Promise<void> {
    await this.op('fsync', p, async () => {
      const fd = this.via(p, (q) => fs.openSync(q, SYNC_OPEN));
      try { await fsyncFd(fd); } finally { fs.closeSync(fd); }
    });
  }

  /**
   * Flushes everything written to the filesystem holding `p` (syncfs, through coreutils'
   * `sync -f`): for many files at once, one call beats an fsync per file several times over.
   */
  async syncFilesystem(p: string): Promise<void> {
    await this.op('fsync', p, async () => { await execFileAsync('sync', ['-f', p], { timeout: 60_000 }); });
  }

  async fsyncDir(dir: string): Promise<void> {
    await this.fsyncFile(dir);
  }

  /**
   * A temp file beside the destination (same filesystem, so the final rename is atomic), created
   * O_EXCL | O_NOFOLLOW through the parent's handle. The caller streams chunks in, then commits
   * (fsync, fchmod, rename, then a check that the destination holds the temp file's inode in its
   * place) or aborts. The directory is not fsynced: a rename lost to a power cut leaves the old
   * content, which the store handles, and the next SQLite commit's journal flush carries it on ext4/xfs.
   */
  async createAtomic(
    dest: string, mode: number,
    options: { durable?: boolean; beforeCreate?: (temp: string) => void; modeAtOpen?: boolean } = {},
  ): Promise<WritableTarget> {
    const durable = options.durable ?? true;
    const temp = tempNameIn(path.dirname(dest));
    options.beforeCreate?.(temp);
    // modeAtOpen: the engine's own files, where the umask may trim the mode; saves a chmod.
    const { file: fd, home } = await this.op('open', temp, async () => this.via(temp, (q, dirFd) => {
      const file = fs.openSync(q, CREATE, options.modeAtOpen ? mode : 0o600);
      return { file, home: this.holdDir(dirFd) };
    }));
    const created = fs.fstatSync(fd);
    let closed = false;
    let prepared: Promise<void> | null = null;
    const close = () => { if (!closed) { closed = true; fs.closeSync(fd); } };
    let released = home === null;
    const release = () => { if (!released) { released = true; this.releaseDir(home!); } };
    const discard = async () => {
      try { close(); } catch { /* already gone */ }
      // From the directory it was made in, wherever a swap moved that directory since; never through a link.
      try {
        if (!released) fs.rmSync(at(home!, path.basename(temp)), { force: true });
        else this.via(temp, (q) => fs.rmSync(q, { force: true }));
      } catch { /* not followed */ }
      release();
    };
    const prepare = () => {
      prepared ??= (async () => {
        try {
          if (durable) await this.op('fsync', temp, () => fsyncFd(fd));
          if (!options.modeAtOpen) await this.op('chmod', temp, async () => fs.fchmodSync(fd, mode));
          close();
        } catch (e) {
          await discard();
          throw e;
        }
      })();
      return prepared;
    };
    return {
      temp,
      write: async (chunk) => {
        await this.op('write', temp, async () => writeAll(fd, chunk));
      },
      prepare,
      commit: async (finalDest = dest) => {
        await prepare();
        try {
          await this.op('rename', temp, async () => this.place(temp, finalDest, created));
        } catch (e) {
          await discard();
          throw e;
        }
        release();
      },
      abort: discard,
    };
  }

  /** A second handle on a temp file's directory, kept until the temp file is placed or removed (while few are held). */
  private holdDir(dirFd: number | null): number | null {
    if (dirFd === null || this.heldDirs >= HELD_DIRS) return null;
    try {
      const fd = fs.openSync(at(dirFd), O_PATH | constants.O_DIRECTORY);
      this.heldDirs++;
      return fd;
    } catch {
      return null; // out of handles: the temp file is removed by path then
    }
  }

  private releaseDir(fd: number): void {
    this.heldDirs--;
    closeQuietly(fd);
  }

  /** Renames the temp file to `dest`, then checks `dest` holds the very inode the temp file was made as. */
  private place(temp: string, dest: string, created: Stats): void {
    const check = (target: string) => {
      const placed = fs.lstatSync(target);
      if (placed.ino !== created.ino || placed.dev !== created.dev) throw new LinkOnPathError();
    };
    if (path.dirname(temp) === path.dirname(dest)) {
      this.via(dest, (target, dirFd) => {
        fs.renameSync(dirFd === null ? temp : at(dirFd, path.basename(temp)), target);
        check(target);
      }, true);
      return;
    }
    this.via(temp, (source) => this.via(dest, (target) => { fs.renameSync(source, target); check(target); }, true));
  }

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
