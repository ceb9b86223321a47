// Stores of thousands of turns are seeded on tmpfs when there is one (/dev/shm): seeding is
// setup, and at several fsyncs per turn it would otherwise cost minutes. The seeded workspace
// and data dir are then copied to the run's disk dir, where every measurement happens
// (the store keeps URIs, never absolute paths, so it opens anywhere).
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import type { BenchContext } from '../context.js';
import { copyTree, removeTree } from '../fs-tools.js';
import type { Workload } from '../workloads.js';

/** Scratch dirs outside the run's root, for an interrupted run to remove. */
export const scratchDirs = new Set<string>();

export interface SeededStore {
  workspace: string;
  dataDir: string;
  seedMs: number;
  onTmpfs: boolean;
}

export async function seededStore(
  ctx: BenchContext,
  name: string,
  workload: Workload,
  seed: (engine: Engine) => Promise<void>,
): Promise<SeededStore> {
  if (!ctx.openEngine) throw new Error('the engine is not available');
  const onTmpfs = existsSync('/dev/shm');
  const scratch = onTmpfs ? await mkdtemp('/dev/shm/turnback-bench-seed-') : ctx.path(`seed-${name}`);
  const target = ctx.path(`store-${name}`);
  scratchDirs.add(scratch);
  try {
    await copyTree(workload.dir, path.join(scratch, 'workspace'));
    const engine = await ctx.openEngine({
      workspace: path.join(scratch, 'workspace'),
      dataDir: path.join(scratch, 'data'),
      keepSessions: 0,
    });
    const started = performance.now();
    try {
      await seed(engine);
    } finally {
      await engine.close();
    }
    const seedMs = performance.now() - started;
    await copyTree(path.join(scratch, 'workspace'), path.join(target, 'workspace'));
    await copyTree(path.join(scratch, 'data'), path.join(target, 'data'));
    return { workspace: path.join(target, 'workspace'), dataDir: path.join(target, 'data'), seedMs, onTmpfs };
  } finally {
    await removeTree(scratch);
    scratchDirs.delete(scratch);
  }
}
