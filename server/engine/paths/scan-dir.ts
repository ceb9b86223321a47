// A directory a scan walks, held by a handle: its names are listed, looked at and read through
// it, and a sub-directory is opened from it with O_NOFOLLOW, so a folder swapped for a symlink
// while the scan runs is never entered. One handle per directory instead of a walk from the root
// per path: the scans make one call per path of the whole tree. Calls go straight to the kernel
// when no hook watches the seam (an awaited call per path would cost more than the call), and
// through the hook otherwise, so crash and fault tests reach them as any other call.
import fs, { type Stats } from 'node:fs';
import path from 'node:path';
import { at, closeQuietly, type Name, openDirAt, relabel } from './beneath.js';
import { chunksOf, openForRead, readWhole } from './file-read.js';
import type { FsOpName } from './fs-ops.js';

export interface Seam {
  op<T>(name: FsOpName, target: string, run: () => Promise<T>): Promise<T>;
  watched(): boolean;
}

export class ScanDir {
  constructor(
    private readonly seam: Seam,
    readonly abs: string,
    private readonly fd: number,
  ) {}

  private pathOf(name: Name): string {
    return `${this.abs}${path.sep}${name.toString()}`;
  }

  /** Runs a call on `name` (or on the directory itself), its errors naming the path the scan knows. */
  private call<T>(name: Name | undefined, run: (through: Name) => T): T {
    const through = name === undefined ? at(this.fd) : at(this.fd, name);
    try {
      return run(through);
    } catch (e) {
      throw relabel(e, through, name === undefined ? this.abs : this.pathOf(name));
    }
  }

  private tracked<T>(op: FsOpName, name: Name | undefined, run: (through: Name) => T): T | Promise<T> {
    if (!this.seam.watched()) return this.call(name, run);
    return this.seam.op(op, name === undefined ? this.abs : this.pathOf(name), async () => this.call(name, run));
  }

  list(): string[] | Promise<string[]> {
    return this.tracked('readdir', undefined, (d) => fs.readdirSync(d));
  }
  /** Names as raw bytes: for a directory holding a name that is not valid UTF-8. */
  listBytes(): Promise<Buffer[]> {
    return this.seam.op('readdir', this.abs, async () =>
      this.call(undefined, (d) => fs.readdirSync(d, { encoding: 'buffer' })),
    );
  }

  /** lstat that answers null for a missing name. */
  lstat(name: Name): Stats | null | Promise<Stats | null> {
    if (typeof name === 'string' && !this.seam.watched()) {
      // By its path: a third of the cost of the handle's /proc path, on the call a scan makes
      // for every path. It only tells a stat: an entry is trusted by it only when it names the
      // inode the index knows (same inode, ctime, mtime and size), and whatever is read, or
      // entered, still goes through the handle.
      try {
        return fs.lstatSync(this.pathOf(name), { throwIfNoEntry: false }) ?? null;
      } catch {
        // A parent swapped under the path (ENOTDIR, ELOOP): the handle answers.
      }
    }
    return this.tracked('lstat', name, (p) => fs.lstatSync(p, { throwIfNoEntry: false }) ?? null);
  }

  readlink(name: string): Promise<string> {
    return this.seam.op('readlink', this.pathOf(name), async () => this.call(name, (p) => fs.readlinkSync(p)));
  }

  /** A file known to be small, at most `limit` bytes; a link swapped in at the name is ELOOP, never followed. */
  readSmallFile(name: string, limit: number): Promise<Buffer> {
    return this.seam.op('readFile', this.pathOf(name), async () => this.call(name, (p) => readWhole(p, limit)));
  }

  /** Bounded chunks, at most `limit` bytes in all (file-read.ts). */
  async *readChunks(name: string, limit: number, chunkSize = 1 << 20): AsyncGenerator<Buffer> {
    const fd = await this.seam.op('read', this.pathOf(name), async () => this.call(name, (p) => openForRead(p)));
    yield* chunksOf(fd, this.pathOf(name), chunkSize, limit);
  }

  /** The sub-directory `name`, opened from this handle; a symlink there now is a race (LinkOnPathError). */
  openDir(name: Name): ScanDir {
    return new ScanDir(this.seam, this.pathOf(name), openDirAt(this.fd, name, this.pathOf(name)));
  }

  close(): void {
    closeQuietly(this.fd);
  }
}
