// Directory handles kept between calls in the same folder, so a rollback of many files in few
// folders opens each folder once, not once per call. A kept handle is lent out only after the
// check a fresh open gets (beneath.ts, openVerified): the kernel's own path of the handle
// (/proc/self/fd/<fd>) is exactly the real path asked for, at the moment it is lent. A folder
// moved, removed or swapped for a link since it was kept shows another path (or none), and the
// handle is closed instead. So a call through a lent handle acts in the same directory a fresh
// open would have reached, for one readlink instead of an open, a readlink and a close.
// A handle is taken out while a call uses it (a nested call in the same folder opens its own),
// and every kept handle is closed once the seam has been idle a moment, so none outlives the
// work that opened it.
import fs from 'node:fs';
import { at, closeQuietly } from './proc-fd.js';

/** Folders whose handles are kept at once (a batch of files spans a few dozen folders at most). */
const KEPT = 128;
/** Kept handles are closed after this long without a call. */
const IDLE_MS = 50;

export class HeldHandles {
  private readonly kept = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  /** A kept handle of `dir` that still holds the directory at exactly `dir`, taken out; or null. */
  take(dir: string): number | null {
    const fd = this.kept.get(dir);
    if (fd === undefined) return null;
    this.kept.delete(dir);
    if (stillAt(fd, dir)) return fd;
    closeQuietly(fd);
    return null;
  }

  /** Gives a handle of `dir` back to be kept (closed when one is kept already, or too many are). */
  give(dir: string, fd: number): void {
    if (this.kept.has(dir)) {
      closeQuietly(fd);
      return;
    }
    this.kept.set(dir, fd);
    if (this.kept.size > KEPT) {
      const [oldest, oldestFd] = this.kept.entries().next().value as [string, number];
      this.kept.delete(oldest);
      closeQuietly(oldestFd);
    }
    this.closeWhenIdle();
  }

  /** Closes every kept handle (a handle taken out is closed when given back, or kept again). */
  closeAll(): void {
    for (const fd of this.kept.values()) closeQuietly(fd);
    this.kept.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private closeWhenIdle(): void {
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.closeAll();
      }, IDLE_MS);
      this.timer.unref();
    }
  }
}

/** Whether the handle holds the directory at exactly the real path `dir` now (its kernel path). */
export function stillAt(fd: number, dir: string): boolean {
  try {
    return fs.readlinkSync(at(fd)) === dir;
  } catch {
    return false;
  }
}
