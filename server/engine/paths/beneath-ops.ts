// Operations on one name in a directory held by a handle (see beneath.ts): nothing here looks a
// path up from the top, so a folder swapped for a symlink meanwhile is never followed. Reads
// and new files never follow a link at the name itself (O_NOFOLLOW; new files O_EXCL too);
// reads open only a regular file, and never wait (file-read.ts).
import fs, { constants } from 'node:fs';
import { LinkOnPathError } from '../errors.js';
import { at, closeQuietly, type Name, O_PATH, openDirAt } from './beneath.js';
import { openForRead } from './file-read.js';

export const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const COPY_CHUNK = 1 << 20;

function copyFd(from: number, to: number): void {
  const buffer = Buffer.allocUnsafe(COPY_CHUNK);
  for (;;) {
    const read = fs.readSync(from, buffer, 0, COPY_CHUNK, null);
    if (read === 0) return;
    let written = 0;
    while (written < read) written += fs.writeSync(to, buffer, written, read - written);
  }
}

/**
 * Sets the mode of what the name holds, through a handle on that very inode (chmod never follows
 * a link swapped in at the name). A file with other hard links is not changed in place: its
 * other names may lie outside the root, so it is replaced by a copy (a new inode) with the mode.
 */
export function chmodNoFollow(dirFd: number, name: string, mode: number, tempName: string): void {
  const through = at(dirFd, name);
  const fd = fs.openSync(through, O_PATH | constants.O_NOFOLLOW);
  try {
    const stats = fs.fstatSync(fd);
    if (stats.isSymbolicLink()) throw new LinkOnPathError();
    if (stats.isFile() && stats.nlink > 1) {
      replaceWithCopy(dirFd, name, mode, tempName);
      return;
    }
    fs.chmodSync(at(fd), mode);
  } finally {
    closeQuietly(fd);
  }
}

/** The name gets a fresh inode holding the same bytes with `mode`, flushed before it replaces the old one. */
export function replaceWithCopy(dirFd: number, name: string, mode: number, tempName: string): void {
  const through = at(dirFd, name);
  const temp = at(dirFd, tempName);
  const source = openForRead(through);
  let target: number | null = null;
  try {
    target = fs.openSync(temp, CREATE, 0o600);
    copyFd(source, target);
    fs.fchmodSync(target, mode);
    fs.fsyncSync(target);
    const placed = fs.fstatSync(target);
    fs.renameSync(temp, through);
    const now = fs.lstatSync(through);
    if (now.ino !== placed.ino || now.dev !== placed.dev) throw new LinkOnPathError();
  } catch (e) {
    if (target !== null) fs.rmSync(temp, { force: true });
    throw e;
  } finally {
    closeQuietly(source);
    if (target !== null) closeQuietly(target);
  }
}

/** Removes what the name holds, a whole tree for a directory, descending only through handles. */
export function removeTree(dirFd: number, name: Name, logical: string): void {
  const through = at(dirFd, name);
  const stats = fs.lstatSync(through, { throwIfNoEntry: false });
  if (!stats) return;
  if (!stats.isDirectory()) {
    fs.unlinkSync(through);
    return;
  }
  const fd = openDirAt(dirFd, name, logical);
  try {
    for (const child of fs.readdirSync(at(fd), { encoding: 'buffer' }))
      removeTree(fd, child, `${logical}/${child.toString()}`);
  } finally {
    closeQuietly(fd);
  }
  fs.rmdirSync(through);
}

/**
 * Copies what `from` holds to the new name `to` (which must not exist), a whole tree for a
 * directory, with modes; links are copied as links, other special files are left out.
 */
export function copyTree(fromDir: number, from: Name, toDir: number, to: Name, logical: string): void {
  const source = at(fromDir, from);
  const target = at(toDir, to);
  const stats = fs.lstatSync(source);
  if (stats.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(source), target);
    return;
  }
  if (stats.isFile()) {
    const input = openForRead(source);
    try {
      const output = fs.openSync(target, CREATE, 0o600);
      try {
        copyFd(input, output);
        fs.fchmodSync(output, stats.mode & 0o7777);
      } finally {
        fs.closeSync(output);
      }
    } finally {
      fs.closeSync(input);
    }
    return;
  }
  if (!stats.isDirectory()) return;
  fs.mkdirSync(target, { mode: 0o700 });
  const fromFd = openDirAt(fromDir, from, logical);
  const toFd = (() => {
    try {
      return openDirAt(toDir, to, logical);
    } catch (e) {
      closeQuietly(fromFd);
      throw e;
    }
  })();
  try {
    for (const child of fs.readdirSync(at(fromFd), { encoding: 'buffer' }))
      copyTree(fromFd, child, toFd, child, `${logical}/${child.toString()}`);
    fs.chmodSync(at(toFd), stats.mode & 0o7777);
  } finally {
    closeQuietly(fromFd);
    closeQuietly(toFd);
  }
}
