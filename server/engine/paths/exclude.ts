// What the engine leaves out of a root: its own data folder (never walked, never listed, never
// recorded) and the `exclude` globs (root-relative, neither recorded nor touched; docs/api.md:
// default `.git/**` and `node_modules/**`; `.gitignore` is not an exclusion). Every walk, scan,
// capture and watch asks here, so the rule is decided in one place. The engine's own temp files
// (an atomic write's, a rollback's) are left out too: seen half-way, they are nobody's change.
import path from 'node:path';
import { TEMP_PREFIX } from './fs.js';
import type { Root } from './roots.js';

/** What the checks need of the engine's context: its compiled globs. */
export interface Excludes {
  limits: { exclude: RegExp[] };
}

/** What a root's exclusion needs: the globs, and where the engine keeps its data. */
export interface RootExcludes extends Excludes {
  roots: { engineDataIn(root: Root): string[] };
}

/** Compiles root-relative globs: `**` spans segments, `*` and `?` stay within one. */
export function compileGlobs(globs: string[]): RegExp[] {
  return globs.map((glob) => {
    let source = '';
    let rest = glob;
    const trailingAll = rest.endsWith('/**');
    if (trailingAll) rest = rest.slice(0, -3);
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (c === '*' && rest[i + 1] === '*') {
        source += '.*';
        i++;
        if (rest[i + 1] === '/') i++;
      } else if (c === '*') source += '[^/]*';
      else if (c === '?') source += '[^/]';
      else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${source}${trailingAll ? '(?:/.*)?' : ''}$`);
  });
}

/** One root's exclusion: the engine's data by absolute path, the globs by root-relative path. */
export class RootExclusion {
  /** Whether the root holds any of the engine's data (most do not: a walk then builds no path to check). */
  readonly holdsEngineData: boolean;

  constructor(
    private readonly globs: readonly RegExp[],
    /** Absolute paths of the engine's data inside this root. */
    private readonly engineData: readonly string[],
  ) {
    this.holdsEngineData = engineData.length > 0;
  }

  /** Whether `abs` is (or lies below) the engine's own data: never walked nor listed. */
  isEngineData(abs: string): boolean {
    return this.engineData.some((p) => abs === p || abs.startsWith(p + path.sep));
  }

  /** Whether a root-relative posix path is excluded ('' is the root itself, never excluded). */
  isExcluded(rel: string): boolean {
    return rel !== '' && (matchesAny(this.globs, rel) || isEngineTemp(rel));
  }
}

export function exclusionOf(ctx: RootExcludes, root: Root): RootExclusion {
  return new RootExclusion(ctx.limits.exclude, ctx.roots.engineDataIn(root));
}

/** Whether a root-relative path, given as segments, is excluded. */
export function isExcluded(ctx: Excludes, segments: string[]): boolean {
  return segments.length > 0 && isExcludedPath(ctx, segments.join('/'));
}

/** The same, for a root-relative posix path. */
function isExcludedPath(ctx: Excludes, rel: string): boolean {
  return rel !== '' && (matchesAny(ctx.limits.exclude, rel) || isEngineTemp(rel));
}

/** Whether a root-relative posix path names one of the engine's temp files (`fs.ts` `tempName`). */
function isEngineTemp(rel: string): boolean {
  return rel.startsWith(TEMP_PREFIX, rel.lastIndexOf('/') + 1);
}

/** The same, for a URI (`root:/rel`). */
export function isExcludedUri(ctx: Excludes, uri: string): boolean {
  return isExcludedPath(ctx, uri.slice(uri.indexOf(':/') + 2));
}

/** Whether a root-relative posix path matches one of the compiled globs. */
export function matchesAny(globs: readonly RegExp[], rel: string): boolean {
  for (const re of globs) if (re.test(rel)) return true;
  return false;
}
