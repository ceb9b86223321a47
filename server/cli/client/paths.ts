// Paths on the command line are relative to the cwd; the service speaks `workspace:/…` URIs of
// the cwd's workspace. Both directions live here so the two never disagree.
import path from 'node:path';
import { usageError } from './errors.js';

const WORKSPACE_PREFIX = 'workspace:/';

/** `src/a.ts` typed in `<root>/pkg` → `workspace:/pkg/src/a.ts`; a path outside the workspace is a usage error. */
export function uriOfPath(root: string, cwd: string, typed: string): string {
  const absolute = path.resolve(cwd, typed);
  const relative = path.relative(root, absolute);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw usageError(`${typed} is not a path inside the workspace ${root}`);
  }
  return WORKSPACE_PREFIX + relative.split(path.sep).join('/');
}

/** A URI as the person at `cwd` would type it: cwd-relative for the workspace root, else the URI itself. */
export function displayPath(root: string, cwd: string, uri: string): string {
  if (!uri.startsWith(WORKSPACE_PREFIX)) return uri;
  const absolute = path.join(root, ...uri.slice(WORKSPACE_PREFIX.length).split('/'));
  return path.relative(cwd, absolute) || '.';
}
