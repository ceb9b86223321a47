// What the engine's watcher watches: every tracked root, less what the scans never look at
// (the engine's own data, excluded paths such as `.git` and `node_modules`).
import path from 'node:path';
import { type Excludes, exclusionOf } from '../../paths/exclude.js';
import type { Roots } from '../../paths/roots.js';
import type { WatchSpec } from './tree-watcher.js';

/** What the spec is made of: the roots, the excluded paths, where the data lives, the log. */
export interface WatchSpecDeps extends Excludes {
  roots: Roots;
  dataDir: string;
  log(line: string): void;
}

export function watchSpecOf(ctx: WatchSpecDeps): WatchSpec {
  const roots = ctx.roots.list().filter((root) => root.tracked);
  const exclusions = new Map(roots.map((root) => [root, exclusionOf(ctx, root)]));
  const inside = (abs: string, dir: string) => abs === dir || abs.startsWith(dir + path.sep);
  return {
    roots: roots.map((root) => root.real),
    barrierDir: path.join(ctx.dataDir, 'watch'),
    log: (line) => ctx.log(line),
    skip: (abs) =>
      roots.some((root) => {
        if (!inside(abs, root.real)) return false;
        const exclusion = exclusions.get(root)!;
        if (exclusion.isEngineData(abs)) return true;
        return exclusion.isExcluded(path.relative(root.real, abs).split(path.sep).join('/'));
      }),
  };
}
