// git's ignore rules, as the scans need them: which folders are git-ignored build or environment
// output (`target/`, `.venv/`, `dist/`), so that one of them too large to protect is left out and
// said so instead of being walked and stored before and after every command. `.gitignore` is not
// an exclusion: an ignored folder within its budget, and every ignored *file* (`.env`, local
// config), stays protected. The rules are read the way git reads them: `.git/info/exclude`, then
// a `.gitignore` in each folder, a deeper file's rules (negations too) overriding a shallower
// one's; a folder git ignores hides everything below it, whatever a rule deeper down says. The
// patterns themselves are matched by `ignore`, the library eslint and prettier use to read them.
import ignore, { type Ignore } from 'ignore';
import type { RootExclusion } from '../paths/exclude.js';
import type { Root } from '../paths/roots.js';
import type { ScanDir } from '../paths/scan-dir.js';
import { STOP, walkTree } from '../paths/walk.js';

/** The rules of one folder's `.gitignore` (or of `.git/info/exclude`, at the root), over its parent's. */
export class IgnoreRules {
  private constructor(
    /** The root-relative posix path of the folder the rules are relative to ('' for the root). */
    private readonly base: string,
    private readonly rules: Ignore | null,
    private readonly parent: IgnoreRules | null,
  ) {}

  static none(): IgnoreRules {
    return new IgnoreRules('', null, null);
  }

  /** This level and those above it, the root's first. */
  private chain(): IgnoreRules[] {
    return this.parent ? [...this.parent.chain(), this] : [this];
  }

  /** The rules in force inside folder `rel`, given the text of its `.gitignore` (null when it has none). */
  within(rel: string, gitignore: string | null): IgnoreRules {
    if (gitignore === null || gitignore.trim() === '') return this;
    return new IgnoreRules(rel, ignore({ allowRelativePaths: true }).add(gitignore), this);
  }

  /**
   * Whether git ignores the folder or file `rel` itself, its parents being known not ignored (the
   * scan asks top-down and stops at the first ignored folder). The deepest file with an opinion wins.
   */
  ignores(rel: string, isDir: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.chain().filter((level) => level.rules)) {
      const relative = base === '' ? rel : rel.slice(base.length + 1);
      const verdict = rules!.test(isDir ? `${relative}/` : relative);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}

/** How much an ignored folder may hold and still be protected: scanned, its contents stored. */
export interface IgnoredBudget {
  files: number;
  bytes: number;
}

/**
 * 2,000 files and 128 MiB: well above what small ignored folders hold (an `.env` folder, local
 * settings, a `coverage/` report, a small cache), and far below a Rust `target/`, a Python
 * `.venv` or a Next.js `.next/` (10,000s to 100,000s of files, gigabytes), whose contents are
 * rebuilt, not written by hand. Walking and storing those before and after every command would
 * cost seconds and fill the store; at the budget, a scan costs at most 2,000 lstats per such
 * folder to find it over.
 */
export const DEFAULT_IGNORED_BUDGET: IgnoredBudget = { files: 2000, bytes: 128 << 20 };

/** An ignored folder over its budget: left out of the scans (not protected), said so. */
export interface OverBudget {
  uri: string;
  /** What the count had reached when the budget was crossed: lower bounds, not totals. */
  files: number;
  bytes: number;
}

/**
 * What a walk of `dir` (the folder at `rel` of `root`, through the tree walker) counted, stopping
 * as soon as the budget is crossed. What the scan would never walk (the engine's data, excluded
 * paths) is not counted; a sub-folder that cannot be entered counts as empty, one that cannot be
 * listed stops the count (the scan below says so).
 */
export async function countWithinBudget(
  dir: ScanDir,
  budget: IgnoredBudget,
  at: { root: Root; rel: string; exclusion: RootExclusion },
): Promise<{ files: number; bytes: number; over: boolean }> {
  const tally = { files: 0, bytes: 0, over: false };
  const overBudget = () => tally.files > budget.files || tally.bytes > budget.bytes;
  const complete = await walkTree<null>(dir, {
    ...at,
    frame: null,
    visitor: {
      cannotList: (_root, _rel, e, opening) => {
        if (opening) return 'empty';
        throw e;
      },
      entry: (entry, descend) => {
        const { stats } = entry;
        if (!stats) return;
        if (stats.isDirectory()) return descend(entry, null).then(() => (overBudget() ? STOP : undefined));
        tally.files++;
        tally.bytes += stats.size;
        if (overBudget()) return STOP;
      },
    },
  });
  tally.over = !complete;
  return tally;
}
