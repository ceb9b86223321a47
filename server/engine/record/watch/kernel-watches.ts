// The inodes the kernel watches for this process: every inotify descriptor's watch list, read
// from /proc/self/fdinfo. A watch the kernel dropped (its folder removed, its filesystem
// unmounted) is gone from there while its FSWatcher still looks open.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The watched inode numbers, or null where /proc cannot tell (not Linux, no procfs). */
export function kernelWatchedInodes(): Set<number> | null {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return null;
  }
  const inodes = new Set<number>();
  let found = false;
  for (const fd of fds) {
    let info: string;
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue;
    }
    found = true;
    for (const match of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+) /gm)) inodes.add(Number.parseInt(match[1]!, 16));
  }
  return found ? inodes : null;
}
