// Calls through a held directory handle: the kernel resolves `/proc/self/fd/<fd>/<name>` from the
// directory the handle holds, wherever it is by then (see beneath.ts). Kept apart from beneath.ts
// so the handle cache (held-handles.ts) and the resolver can both use it without a cycle.
import fs from 'node:fs';

export type Name = string | Buffer;

/** The path through which a call acts on `name` in the directory a handle holds (or on the directory itself). */
export function at(fd: number, name?: string): string;
export function at(fd: number, name: Buffer): Buffer;
export function at(fd: number, name?: Name): Name;
export function at(fd: number, name?: Name): Name {
  if (name === undefined) return `/proc/self/fd/${fd}`;
  if (typeof name === 'string') return `/proc/self/fd/${fd}/${name}`;
  return Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), name]);
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}
