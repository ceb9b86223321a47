// `exclude`: root-relative globs of paths that are neither recorded nor touched (docs/api.md:
// default `.git/**` and `node_modules/**`; `.gitignore` is not an exclusion).

/** What the checks need of the engine's context: its compiled globs. */
export interface Excludes {
  limits: { exclude: RegExp[] };
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

export function isExcluded(ctx: Excludes, segments: string[]): boolean {
  if (segments.length === 0) return false;
  return isExcludedPath(ctx, segments.join('/'));
}

/** The same, for a root-relative posix path. */
export function isExcludedPath(ctx: Excludes, rel: string): boolean {
  return matchesAny(ctx.limits.exclude, rel);
}

/** Whether a root-relative posix path matches one of the compiled globs. */
export function matchesAny(globs: readonly RegExp[], rel: string): boolean {
  for (const re of globs) if (re.test(rel)) return true;
  return false;
}
