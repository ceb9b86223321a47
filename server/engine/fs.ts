// The only module through which the engine touches the filesystem. Every operation passes
// through `op()`, which calls an optional `beforeOp` hook first: tests use it to count
// operations, crash the engine after the N-th one, or inject errno faults (ENOSPC, EIO…).
import * as fsp from 'node:fs/promises';
import fs, { constants, createReadStream, realpathSync, type Stats } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export type FsOpName =
  | 'lstat' | 'stat' | 'readFile' | 'readlink' | 'realpath' | 'readdir' | 'mkdir' | 'rmdir'
  | 'unlink' | 'rm' | 'rename' | 'symlink' | 'chmod' | 'writeFile' | 'open' | 'write'
  | 'fsync' | 'close' | 'read' | 'copyFile' | 'cp';

export type BeforeOp = (op: FsOpName, target: string) => void | Promise<void>;

/** Temp files carry this prefix so a later open can recognise and remove leftovers. */
export const TEMP_PREFIX = '.turnback-tmp-';

export function tempNameIn(dir: string): string {
  return path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
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

export class EngineFs {
  beforeOp: BeforeOp | undefined;

  constructor(options: { beforeOp?: BeforeOp } = {}) {
    this.beforeOp = options.beforeOp;
  }

  private async op<T>(name: FsOpName, target: string, run: () => Promise<T>): Promise<T> {
    if (this.beforeOp) await this.beforeOp(name, target);
    return run();
  }

  // Metadata calls and small reads/writes run synchronously: a round trip through the thread
  // pool costs 5-10x the call itself, and a captured write makes a dozen of them. Only fsync
  // (long, and cheaper side by side) and whole-tree copies or removals stay asynchronous.
  lstat(p: string): Promise<Stats> { return this.op('lstat', p, async () => fs.lstatSync(p)); }
  stat(p: string): Promise<Stats> { return this.op('stat', p, async () => fs.statSync(p)); }

  /**
   * lstat and readdir for the scans, which make one call per path of the whole tree: answered
   * at once when no hook watches the seam (an awaited call per path would cost more than the
   * call), through the hook otherwise, so crash and fault tests reach them as any other call.
   */
  lstatForScan(p: string): Stats | null | Promise<Stats | null> {
    if (this.beforeOp) return this.lstatOrNull(p);
    return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
  }
  readdirForScan(p: string): string[] | Promise<string[]> {
    if (this.beforeOp) return this.readdir(p);
    return fs.readdirSync(p);
  }

  /** lstat that answers null for a missing path. */
  async lstatOrNull(p: string): Promise<Stats | null> {
    try { return await this.lstat(p); } catch (e) { if (isNotFound(e)) return null; throw e; }
  }

  /** Whole-file read: asynchronous, as the file may be big (callers read small files with `readSmallFile`). */
  readFile(p: string): Promise<Buffer> { return this.op('readFile', p, () => fsp.readFile(p)); }
  /** Whole-file read of a file known to be small (at most about a megabyte). */
  readSmallFile(p: string): Promise<Buffer> { return this.op('readFile', p, async () => fs.readFileSync(p)); }
  readlink(p: string): Promise<string> { return this.op('readlink', p, async () => fs.readlinkSync(p)); }
  realpath(p: string): Promise<string> { return this.op('realpath', p, async () => fs.realpathSync(p)); }
  readdir(p: string): Promise<string[]> { return this.op('readdir', p, async () => fs.readdirSync(p)); }
  /** Names as raw bytes: for a directory holding a name that is not valid UTF-8. */
  readdirBytes(p: string | Buffer): Promise<Buffer[]> {
    return this.op('readdir', String(p), async () => fs.readdirSync(p, { encoding: 'buffer' }));
  }
  /** lstat of a path given as raw bytes (a name that is not valid UTF-8 has no string form). */
  lstatBytes(p: Buffer): Promise<Stats> { return this.op('lstat', p.toString(), async () => fs.lstatSync(p)); }
  mkdir(p: string, mode?: number): Promise<void> {
    return this.op('mkdir', p, async () => { fs.mkdirSync(p, { mode }); });
  }
  mkdirp(p: string): Promise<void> {
    // Asynchronous: the recursive form can spin on some special paths (under /proc), and must not freeze the process.
    return this.op('mkdir', p, async () => { await fsp.mkdir(p, { recursive: true }); });
  }
  rmdir(p: string): Promise<void> { return this.op('rmdir', p, async () => fs.rmdirSync(p)); }
  unlink(p: string): Promise<void> { return this.op('unlink', p, async () => fs.unlinkSync(p)); }
  rmrf(p: string): Promise<void> { return this.op('rm', p, () => fsp.rm(p, { recursive: true, force: true })); }
  rename(from: string, to: string): Promise<void> { return this.op('rename', from, async () => fs.renameSync(from, to)); }
  symlink(target: string, p: string): Promise<void> { return this.op('symlink', p, async () => fs.symlinkSync(target, p)); }
  chmod(p: string, mode: number): Promise<void> { return this.op('chmod', p, async () => fs.chmodSync(p, mode)); }
  cpRecursive(from: string, to: string): Promise<void> {
    return this.op('cp', from, () => fsp.cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false }));
  }

  /** Reads a file in bounded chunks (never the whole file at once). */
  async *readChunks(p: string, chunkSize = 1 << 20): AsyncGenerator<Buffer> {
    await this.op('read', p, async () => undefined);
    const stream = createReadStream(p, { highWaterMark: chunkSize });
    for await (const chunk of stream) yield chunk as Buffer;
  }

  async fsyncFile(p: string): Promise<void> {
    await this.op('fsync', p, async () => {
      const fd = fs.openSync(p, constants.O_RDONLY);
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
   * A temp file beside the destination (same filesystem, so the final rename is atomic). The
   * caller streams chunks in, then commits (fsync, chmod, rename) or aborts. The directory is not
   * fsynced: a rename lost to a power cut leaves the old content, which the store handles, and
   * the next SQLite commit's journal flush carries it on ext4/xfs.
   */
  async createAtomic(
    dest: string, mode: number,
    options: { durable?: boolean; beforeCreate?: (temp: string) => void; modeAtOpen?: boolean } = {},
  ): Promise<WritableTarget> {
    const durable = options.durable ?? true;
    const dir = path.dirname(dest);
    const temp = tempNameIn(dir);
    options.beforeCreate?.(temp);
    // modeAtOpen: the engine's own files, where the umask may trim the mode; saves a chmod.
    const fd = await this.op('open', temp, async () => fs.openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, options.modeAtOpen ? mode : 0o600));
    let closed = false;
    let prepared: Promise<void> | null = null;
    const close = () => { if (!closed) { closed = true; fs.closeSync(fd); } };
    const discard = async () => {
      try { close(); } catch { /* already gone */ }
      fs.rmSync(temp, { force: true });
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
          await this.rename(temp, finalDest);
        } catch (e) {
          await discard();
          throw e;
        }
      },
      abort: discard,
    };
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
