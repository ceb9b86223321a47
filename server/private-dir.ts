// turnback's own dirs (the state dir, a data dir) hold its tokens and the contents of people's
// files: used only when they are the user's own, nobody else can write them, and no parent lets
// another user swap them. A dir of ours that others could only read is made 0700 (nothing can
// have been planted in it); one they could write is refused, since something may have been.
import { chmodSync, lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

const mode = (bits: number) => `mode ${(bits & 0o7777).toString(8).padStart(4, '0')}`;

/** Why `dir` (an existing directory) cannot be trusted, or null when it can. */
export function unsafeDirReason(dir: string): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const link = lstatSync(dir);
  if (link.isSymbolicLink() && link.uid !== uid && link.uid !== 0)
    return `is a link owned by uid ${link.uid}, not by you (uid ${uid})`;
  const st = statSync(dir);
  if (!st.isDirectory()) return 'is not a directory';
  if (st.uid !== uid) return `is owned by uid ${st.uid}, not by you (uid ${uid}): use a dir of your own`;
  if (st.mode & 0o022) return `can be written by group or others (${mode(st.mode)}): run chmod 700 on it`;
  // A parent another user may write (the sticky /tmp aside) lets them put another dir in its
  // place: the one holding it must be the user's or root's, and none above it writable by anyone.
  const home = path.dirname(realpathSync(dir));
  const holder = statSync(home);
  if (holder.uid !== uid && holder.uid !== 0) return `lies in ${home}, owned by uid ${holder.uid}`;
  for (let parent = home; ; parent = path.dirname(parent)) {
    const p = statSync(parent);
    if (p.mode & 0o002 && !(p.mode & 0o1000)) return `lies in ${parent}, which anyone can write (${mode(p.mode)})`;
    if (parent === path.dirname(parent)) return null;
  }
}

/** Makes `dir` (0700, and any missing parent) or checks the one there; narrows a readable one of ours to 0700. The reason it cannot be used, or null. */
export function makePrivateDir(dir: string): string | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const reason = unsafeDirReason(dir);
  if (reason) return reason;
  if (statSync(dir).mode & 0o077) chmodSync(dir, 0o700);
  return null;
}
