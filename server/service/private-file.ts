// Files of turnback's own (state dir, data dir): readable by their owner only, and never reached
// through a link, so a link planted in their place is refused (ELOOP), not followed.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW } = constants;

/** A file's whole text, its last component never a link. */
export function readPrivateFile(file: string): string {
  const fd = openSync(file, O_RDONLY | O_NOFOLLOW);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** A new 0600 file holding `text` under a fresh name beside `file`, for a rename or a link. */
function writeTemp(file: string, text: string | Buffer): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    // A umask cannot widen it; this makes sure nothing narrowed it below the owner's read.
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return temp;
}

/** Written whole: a temp file renamed over the old one (a rename replaces a link, never follows it). */
export function writePrivateFile(file: string, text: string): void {
  const temp = writeTemp(file, text);
  try {
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Creates `file` whole with `text` unless it exists: true when this call made it (a link is atomic, so a racing reader never sees it half-written). */
export function createPrivateFileOnce(file: string, text: string | Buffer): boolean {
  const temp = writeTemp(file, text);
  try {
    linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** A 0600 log opened for appending (a descriptor the caller closes). */
export function openPrivateLog(file: string): number {
  return openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
}
