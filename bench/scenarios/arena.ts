// One workload copied once per contender, so all of them work on the same bytes side by side.
import type { BenchContext } from '../context.js';
import type { Contender } from '../contenders/contender.js';
import { rawContender } from '../contenders/raw.js';
import { shadowGitContender, type ShadowGit } from '../contenders/shadow-git.js';
import { turnbackContender, type TurnbackContender } from '../contenders/turnback.js';
import { copyTree, removeTree } from '../fs-tools.js';
import type { Workload, WorkloadSpec } from '../workloads.js';

export interface Arena {
  workload: Workload;
  raw: Contender | null;
  git: ShadowGit;
  /** null when the engine is not available. */
  turnback: TurnbackContender | null;
  /** Milliseconds the shadow git took for its first whole-tree snapshot. */
  gitFirstSnapshotMs: number;
  /** Closes the engine, runs `whileClosed` (e.g. to measure the closed store), opens it again. */
  reopenTurnback(whileClosed: () => Promise<void>): Promise<void>;
  dispose(): Promise<void>;
}

export async function createArena(ctx: BenchContext, spec: WorkloadSpec, options: { raw: boolean }): Promise<Arena> {
  const workload = await ctx.workload(spec);
  const base = ctx.path(`arena-${spec.name}`);
  const dirs = {
    raw: `${base}/raw-workspace`,
    rawBackup: `${base}/raw-backup`,
    git: `${base}/git-workspace`,
    gitDir: `${base}/shadow.git`,
    turnback: `${base}/turnback-workspace`,
    data: `${base}/turnback-data`,
  };
  if (options.raw) await copyTree(workload.dir, dirs.raw);
  await copyTree(workload.dir, dirs.git);
  const git = await shadowGitContender(dirs.git, dirs.gitDir);
  const started = performance.now();
  await git.snapshot('workspace before the agent');
  const gitFirstSnapshotMs = performance.now() - started;
  ctx.log(`${spec.name}: shadow-git first snapshot ${(gitFirstSnapshotMs / 1000).toFixed(1)} s`);

  let turnback: TurnbackContender | null = null;
  const openTurnback = async (): Promise<TurnbackContender | null> =>
    ctx.openEngine ? turnbackContender(ctx.openEngine, { workspace: dirs.turnback, dataDir: dirs.data }) : null;
  if (ctx.openEngine) {
    await copyTree(workload.dir, dirs.turnback);
    turnback = await openTurnback();
  }
  const arena: Arena = {
    workload,
    raw: options.raw ? rawContender(dirs.raw, dirs.rawBackup) : null,
    git,
    turnback,
    gitFirstSnapshotMs,
    async reopenTurnback(whileClosed) {
      await arena.turnback?.close();
      await whileClosed();
      arena.turnback = await openTurnback();
    },
    async dispose() {
      await arena.turnback?.close();
      arena.turnback = null;
      await removeTree(base);
    },
  };
  return arena;
}

export function contendersOf(arena: Arena): Contender[] {
  return [arena.raw, arena.git, arena.turnback].filter((c): c is Contender => c !== null);
}
