// A file written over in place beneath a root: the file a restore replaces keeps its inode and
// takes the new bytes, where a rename would need a new inode (on ext4 the costliest call of a
// restore: a create took 0.25-1 ms here, a write over the same blocks 20 µs). The file is
// opened through its folder's checked handle with O_NOFOLLOW, so it is the very file at the
// path; it is written only if it is still what the caller saw (`replaces`, asked with its
// fstat) and if writing it reaches nothing else: a regular file with this one link and no
// set-id bit. Anything else declines (NotInPlaceError) and the caller replaces the file by
// rename instead (atomic-write.ts).
//
// Unlike a rename this is not atomic: a write cut short leaves the file part old, part new.
// The caller names the file and both contents in the store before the first byte is written,
// and finishes it from there (rollback/overwrite-repair.ts).
import fs, { constants, type Stats } from 'node:fs';
import { DestinationChangedError, type AtomicSeam } from './atomic-write.js';

/** The file may not be written in place (another link, not writable, running, set-id…): replace it by rename. */
export class NotInPlaceError extends Error {
  constructor(dest: string, why: string) {
    super(`${dest} is not written in place: ${why}`);
  }
}

/** The write began and did not end: the file may hold part of each content until it is finished. */
export class CutShortError extends Error {
  constructor(
    readonly dest: string,
    /** The inode written (what a repair may replace, and nothing else). */
    readonly written: Stats,
    readonly reason: unknown,
  ) {
    super(`writing ${dest} in place was cut short: ${(reason as Error)?.message ?? String(reason)}`);
  }
}

export interface InPlaceOptions {
  /** Asked with the open file's fstat (undefined when the path is gone): false leaves it as it is. */
  replaces: (now: Stats | undefined) => boolean;
  /**
   * Whether the file still holds what the caller saw, asked with its bytes read through the open
   * file right before it is written over: for a file changed so recently that a change within
   * the same timestamp tick would leave its fstat as it was (state/seen.ts, racy), whose content
   * the caller did not read again.
   */
  holds?: (bytes: Buffer) => boolean;
}

/** Never following a link at the name, never waiting on a FIFO swapped in; read too when its content is checked. */
const OPEN_EXISTING = constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** The set-uid and set-gid bits: none stands on a half-written file (as a temp file is made without them). */
export const SET_ID_BITS = 0o6000;

/** The file's bytes through its open handle, at most `size` (what its fstat said). */
function readAll(fd: number, size: number): Buffer {
  const data = Buffer.allocUnsafe(size);
  let at = 0;
  for (let n = 1; at < size && n > 0; at += n) n = fs.readSync(fd, data, at, size - at, at);
  return data.subarray(0, at);
}

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset, offset);
}

/** Opens the file at `dest` for writing, if it may be written in place; a change since is DestinationChangedError. */
function openExisting(
  through: string,
  dest: string,
  replaces: InPlaceOptions['replaces'],
  read: boolean,
): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = fs.openSync(through, OPEN_EXISTING | (read ? constants.O_RDWR : constants.O_WRONLY));
  } catch (e) {
    // Something else there now (gone, a link, a FIFO without a reader: ENXIO) is a change.
    if (!replaces(fs.lstatSync(through, { throwIfNoEntry: false }))) throw new DestinationChangedError(dest);
    // Not writable by us, a running program (ETXTBSY), a read-only mount…: a rename may still do.
    throw new NotInPlaceError(dest, (e as NodeJS.ErrnoException).code ?? String(e));
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!replaces(stats)) throw new DestinationChangedError(dest);
    if (!stats.isFile()) throw new NotInPlaceError(dest, 'not a regular file');
    if (stats.nlink !== 1) throw new NotInPlaceError(dest, `${stats.nlink} links`);
    if ((stats.mode & SET_ID_BITS) !== 0) throw new NotInPlaceError(dest, 'a set-id file');
    return { fd, stats };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Writes `data` over the file at `dest` and gives it `mode`: the bytes from the start, the rest
 * cut off, then the mode (set-id bits only once the content is whole). Not flushed: the caller
 * flushes (fsync, or one syncfs for many files). Each step is an operation of the seam.
 */
export async function overwriteInPlace(
  seam: AtomicSeam,
  dest: string,
  data: Uint8Array,
  mode: number,
  options: InPlaceOptions,
): Promise<void> {
  const { fd, stats } = await seam.op('open', dest, async () => {
    let opened: { fd: number } | undefined;
    try {
      // Confirmed: the folder is still where the path says once the file is open, before a byte is written.
      return await seam.viaAsync(
        dest,
        async (through) => (opened = openExisting(through, dest, options.replaces, !!options.holds)),
        true,
      );
    } catch (e) {
      if (opened) fs.closeSync(opened.fd);
      throw e;
    }
  });
  const holds = options.holds;
  if (holds) {
    try {
      await seam.op('read', dest, async () => {
        if (!holds(readAll(fd, stats.size))) throw new DestinationChangedError(dest);
      });
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }
  try {
    await seam.op('write', dest, async () => writeAll(fd, data));
    if (stats.size > data.length) await seam.op('truncate', dest, async () => fs.ftruncateSync(fd, data.length));
    if ((stats.mode & 0o7777) !== mode || (mode & SET_ID_BITS) !== 0)
      await seam.op('chmod', dest, async () => fs.fchmodSync(fd, mode));
  } catch (e) {
    throw new CutShortError(dest, stats, e);
  } finally {
    fs.closeSync(fd);
  }
}
