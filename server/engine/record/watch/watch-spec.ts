// What the engine's watcher watches: every tracked root, less what the scans never look at
// (the engine's own data, excluded paths such as `.git` and `node_modules`). The rules travel as
// plain data too, so the watcher's thread can build the same `skip` (a function cannot be sent).
import path from 'node:path';
import { type Excludes, RootExclusion } from '../../paths/exclude.js';
import type { Roots } from '../../paths/roots.js';
import type { SkipRules, WatchSpec } from './tree-watcher.js';

/** What the spec is made of: the roots, the excluded paths, where the data lives, the log. */
export interface WatchSpecDeps extends Excludes {
  roots: Roots;
  dataDir: string;
  log(line: string): void;
}

export function watchSpecOf(ctx: WatchSpecDeps): WatchSpec {
  const roots = ctx.roots.list().filter((root) => root.tracked);
  const rules: SkipRules = {
    roots: roots.map((root) => ({ real: root.real, engineData: ctx.roots.engineDataIn(root) })),
    exclude: ctx.limits.exclude.map(({ source, flags }) => ({ source, flags })),
  };
  return {
    roots: roots.map((root) => root.real),
    barrierDir: path.join(ctx.dataDir, 'watch'),
    log: (line) => ctx.log(line),
    skip: skipOf(rules),
    rules,
  };
}

/** Whether a folder is left unwatched: the engine's own data, or an excluded path of its root. */
export function skipOf(rules: SkipRules): (abs: string) => boolean {
  const globs = rules.exclude.map(({ source, flags }) => new RegExp(source, flags));
  const roots = rules.roots.map(({ real, engineData }) => ({ real, exclusion: new RootExclusion(globs, engineData) }));
  const inside = (abs: string, dir: string) => abs === dir || abs.startsWith(dir + path.sep);
  return (abs) =>
    roots.some(({ real, exclusion }) => {
      if (!inside(abs, real)) return false;
      if (exclusion.isEngineData(abs)) return true;
      return exclusion.isExcluded(path.relative(real, abs).split(path.sep).join('/'));
    });
}
