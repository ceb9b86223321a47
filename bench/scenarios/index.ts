// The order of a run: the W2 arena serves items 5, 1 and 2; then the turnback-only items and the
// comparisons with one other tool each (Gemini CLI: item 14).
import type { BenchContext } from '../context.js';
import { createArena } from './arena.js';
import { ensureBuild } from './build.js';
import { bigTurnScenario } from './big-turn.js';
import { captureScenario } from './capture.js';
import { consoleScenario } from './console.js';
import { geminiScenario } from './gemini.js';
import { historyScenario } from './history.js';
import { ignoredBuildScenario } from './ignored-build.js';
import { indexBuildScenario } from './index-build.js';
import { hookScenario } from './hook.js';
import { memoryScenario } from './memory.js';
import { packingScenario } from './packing.js';
import { rollbackScenario } from './rollback.js';
import { scalingScenario } from './scaling.js';
import { scanScenario } from './scan.js';
import { serviceScenario } from './service.js';
import { storageScenario } from './storage-size.js';
import { watcherScenario } from './watcher.js';

export const SECTIONS: [string, string][] = [
  ['1', 'One turn writing 10 files in W2'],
  ['2', 'Rollback of a turn that wrote N files (W2)'],
  ['3', 'Scaling with store size (turnback)'],
  ['4', 'Cold open of a store holding many turns (turnback)'],
  ['5', 'Store bytes after turns of small edits'],
  ['6', 'Peak RSS (turnback)'],
  ['7', 'Console timeline in Chromium'],
  ['8', 'Claude Code hook latency'],
  ['9', 'Shell commands: the scans around a command (W2)'],
  ['10', 'Real history: commander.js commits replayed as turns'],
  ['11', 'Build output: a git-ignored target/ folder'],
  ['12', 'The always-on service: cold start and memory'],
  ['13', 'Index build in the background'],
  ['14', "Gemini CLI's own checkpoints and restore, replicated (W2)"],
  ['15', 'Background packing against the next turn (W2)'],
  ['16', 'The watcher: misses over a real history, a rename storm, a large checkout'],
  ['17', 'A 5,000-file command turn in a 10,000-file project: what a person does next'],
];

export interface RunOptions {
  only: Set<string> | null;
  /** Use an existing build/ and dist/ instead of running `npm run build`. */
  reuseBuild: boolean;
}

export async function runScenarios(ctx: BenchContext, { only, reuseBuild }: RunOptions): Promise<void> {
  const wants = (id: string): boolean => !only || only.has(id);
  if (!ctx.openEngine) {
    for (const [id] of SECTIONS)
      ctx.results.notMeasured(id, `turnback: the engine did not load (${ctx.engineLoadError})`);
  }
  if (wants('1') || wants('2') || wants('5')) {
    const w2 = await createArena(ctx, ctx.config.w2, { raw: wants('1') || wants('2') });
    try {
      if (wants('5')) await storageScenario(ctx, w2);
      if (wants('1')) await captureScenario(ctx, w2);
      if (wants('2')) await rollbackScenario(ctx, w2);
    } finally {
      await w2.dispose();
    }
  }
  if (wants('5')) {
    const w1 = await createArena(ctx, ctx.config.w1, { raw: false });
    try {
      await storageScenario(ctx, w1);
    } finally {
      await w1.dispose();
    }
  }
  if (wants('3') || wants('4')) await scalingScenario(ctx, wants('4'));
  if (wants('6')) await memoryScenario(ctx);
  if (wants('9')) await scanScenario(ctx);
  if (wants('10')) await historyScenario(ctx);
  if (wants('11')) await ignoredBuildScenario(ctx);
  if (wants('13')) await indexBuildScenario(ctx);
  if (wants('14')) await geminiScenario(ctx);
  if (wants('15')) await packingScenario(ctx);
  if (wants('16')) await watcherScenario(ctx);
  if (wants('7'))
    await guarded(ctx, '7', async () => {
      await consoleScenario(ctx, await ensureBuild(ctx, reuseBuild));
    });
  if (wants('8'))
    await guarded(ctx, '8', async () => {
      await hookScenario(ctx, await ensureBuild(ctx, reuseBuild));
    });
  if (wants('12'))
    await guarded(ctx, '12', async () => {
      await serviceScenario(ctx, await ensureBuild(ctx, reuseBuild));
    });
  if (wants('17'))
    await guarded(ctx, '17', async () => {
      await bigTurnScenario(ctx, await ensureBuild(ctx, reuseBuild));
    });
}

/** Items that need the built CLI, the console or the hook: a failure is reported, not fatal. */
async function guarded(ctx: BenchContext, section: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    ctx.log(`item ${section} not measured: ${reason}`);
    ctx.results.notMeasured(section, reason);
  }
}
