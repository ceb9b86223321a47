// Reading a file at a name another process may change at any moment. The open never waits:
// O_NONBLOCK, so a FIFO swapped in since the name's lstat opens at once instead of waiting for
// a writer (which would hold the whole process), and O_NOFOLLOW, so a link is never followed.
// The handle is then fstat-checked: only a regular file is read; anything else is answered as
// what it is. Reads run in bounded chunks and stop at a limit, so a file that grows while it is
// read (an append racing the scan) costs at most the limit, never the disk's worth.
import fs, { constants } from 'node:fs';
import { promisify } from 'node:util';
import type { SpecialKind } from '../../protocol.js';
import { closeQuietly, type Name } from './beneath.js';

const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const readAt = promisify(fs.read);

export type { SpecialKind };

/** The kind of a file that is neither a regular file, a directory nor a symlink (null for those). */
export function specialKindOf(stats: fs.Stats): SpecialKind | null {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'char';
  if (stats.isBlockDevice()) return 'block';
  return null;
}

/**
 * The name held something other than a regular file when it was opened (a FIFO, socket or
 * device, swapped in since its lstat): nothing was read. Its code is BSD's EFTYPE, which
 * Linux lacks, so it is told from every real system error.
 */
export class NotRegularFileError extends Error {
  readonly code = 'EFTYPE';
  constructor(
    readonly path: string,
    readonly kind: SpecialKind | 'dir' | 'other',
  ) {
    super(`${path} is not a regular file (${kind}); it was not read`);
    this.name = 'NotRegularFileError';
  }
}

/** A read went past its limit (the file grew while read): what was read is dropped. */
export class GrewPastLimitError extends Error {
  readonly code = 'EFBIG';
  constructor(
    readonly path: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${path} grew past ${limit} bytes while being read`);
    this.name = 'GrewPastLimitError';
  }
}

/** Opens a regular file for reading; a link at the name is ELOOP, anything else but a file NotRegularFileError. */
export function openForRead(through: Name): number {
  return openRegular(through).fd;
}

/** openForRead, with the size the open handle has. */
function openRegular(through: Name): { fd: number; size: number } {
  let fd: number;
  try {
    fd = fs.openSync(through, READ);
  } catch (e) {
    // A socket cannot be opened at all.
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw new NotRegularFileError(String(through), 'socket');
    throw e;
  }
  let stats: fs.Stats;
  try {
    stats = fs.fstatSync(fd);
  } catch (e) {
    closeQuietly(fd);
    throw e;
  }
  if (!stats.isFile()) {
    closeQuietly(fd);
    throw new NotRegularFileError(String(through), specialKindOf(stats) ?? (stats.isDirectory() ? 'dir' : 'other'));
  }
  return { fd, size: stats.size };
}

/**
 * The whole file, at most `limit` bytes (GrewPastLimitError past it), read in bounded chunks. The
 * first is sized by the open handle's size (one byte more, to see the end), so a small file's
 * bytes never sit in a buffer far larger than they are.
 */
export function readWhole(through: Name, limit: number, chunkSize = 1 << 20): Buffer {
  const { fd, size: known } = openRegular(through);
  try {
    const parts: Buffer[] = [];
    let size = 0;
    for (;;) {
      const want = parts.length === 0 ? known + 1 : chunkSize;
      const buffer = Buffer.allocUnsafe(Math.min(want, chunkSize, limit - size + 1));
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) return Buffer.concat(parts, size);
      size += read;
      if (size > limit) throw new GrewPastLimitError(String(through), size, limit);
      parts.push(read === buffer.length ? buffer : buffer.subarray(0, read));
      // A regular file's read comes up short only at its end: no second call to learn it.
      if (read < buffer.length) return parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
    }
  } finally {
    closeQuietly(fd);
  }
}

/** Chunks of an open file until its end, or GrewPastLimitError once past `limit`; the handle is closed after. */
export async function* chunksOf(
  fd: number,
  logical: string,
  chunkSize: number,
  limit = Infinity,
): AsyncGenerator<Buffer> {
  try {
    let size = 0;
    for (;;) {
      const want = Number.isFinite(limit) ? Math.min(chunkSize, limit - size + 1) : chunkSize;
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await readAt(fd, buffer, 0, want, null);
      if (bytesRead === 0) return;
      size += bytesRead;
      if (size > limit) throw new GrewPastLimitError(logical, size, limit);
      yield bytesRead === want ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    closeQuietly(fd);
  }
}
