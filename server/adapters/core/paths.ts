// Path questions the hook asks: is a path inside a workspace, and what is its workspace URI.
// Both the path as given and its real path are tried, so a workspace reached through a
// symlink (or a cwd reported through one) still matches.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The relative path of `target` inside `root`, '' for the root itself, null when outside. */
export function relativeInside(root: string, target: string): string | null {
  const rel = relative(root, target);
  if (rel === '') return '';
  if (isAbsolute(rel) || rel === '..' || rel.startsWith('..' + sep)) return null;
  return rel;
}

/**
 * The real path of `path`, resolving the deepest ancestor that exists (a file about to be
 * created has no real path yet, its folder may not either).
 */
export function realPathOfMaybeMissing(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function variants(path: string): string[] {
  const lexical = resolve(path);
  const real = realPathOfMaybeMissing(lexical);
  return real === lexical ? [lexical] : [lexical, real];
}

/** Relative path of `target` inside `root`, comparing lexical and real paths of both. */
export function relativeInsideAnyForm(root: string, target: string): string | null {
  const roots = variants(root);
  for (const candidate of variants(target)) {
    for (const r of roots) {
      const rel = relativeInside(r, candidate);
      if (rel !== null) return rel;
    }
  }
  return null;
}

/**
 * `workspace:/a/b` for the relative path `a/b`, in posix separators and no other change: a URI
 * names a file exactly as on disk (docs/api.md), and on Linux an NFD name and its NFC twin are two files.
 */
export function workspaceUri(relativePath: string): string {
  return 'workspace:/' + relativePath.split(sep).join('/');
}
