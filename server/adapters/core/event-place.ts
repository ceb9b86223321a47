// Where a hook event's files are, for choosing its workspace: its cwd, except a file tool's edit
// of a path outside the cwd, which is recorded where that file is (docs/api.md, linked turns).
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HostEvent } from './host.js';
import { relativeInside } from './paths.js';

export function placeOfEvent(event: HostEvent): string {
  if (event.kind !== 'before-mutate' || event.paths.length === 0) return event.cwd;
  const target = resolve(event.cwd, event.paths[0]);
  if (relativeInside(event.cwd, target) !== null) return event.cwd;
  // A file about to be created, maybe in a folder not made yet: its deepest folder that exists.
  for (let folder = dirname(target); ; folder = dirname(folder)) {
    if (isDirectory(folder) || dirname(folder) === folder) return folder;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
