// Item 1: one agent turn writing 10 files in W2, per contender.
import type { BenchContext } from '../context.js';
import { summarize } from '../stats.js';
import { flushFilesystem } from '../fs-tools.js';
import { editsFor, PathPicker } from '../workloads.js';
import { contendersOf, type Arena } from './arena.js';

export const CAPTURE_SECTION = '1';

const LABELS: Record<string, string> = {
  raw: 'raw durable writes (write + fsync each)',
  'shadow-git': 'shadow-git writes + git add -A + git commit',
  turnback: 'turnback turn total (input, writes, turnEnd)',
};

export async function captureScenario(ctx: BenchContext, arena: Arena): Promise<void> {
  const { results, config } = ctx;
  const n = config.turnFiles;
  results.figure(
    CAPTURE_SECTION,
    'capture.git-first-snapshot',
    `shadow-git first snapshot of ${arena.workload.spec.name} (once)`,
    'shadow-git',
    'ms',
    arena.gitFirstSnapshotMs,
  );
  const contenders = contendersOf(arena);
  // The same seed per contender: each writes the same files with the same bytes.
  const pickers = contenders.map(() => new PathPicker(arena.workload.paths, 0xca97));
  const samples: number[][] = contenders.map(() => []);
  // Contenders take turns run by run, so load from elsewhere weighs on all of them alike.
  for (let run = 0; run <= config.runs; run++) {
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[i];
      const paths = pickers[i].take(n);
      await contender.beforeTurn(paths);
      const edits = await editsFor(arena.workload, paths, 10_000 + run * n);
      await flushFilesystem(contender.workspace);
      const start = performance.now();
      await contender.turn(edits, `capture ${run}`);
      if (run > 0) samples[i].push(performance.now() - start); // run 0 warms up
      await contender.settle?.();
    }
  }
  contenders.forEach((contender, i) => {
    const summary = summarize(samples[i]);
    results.figure(CAPTURE_SECTION, `capture.${contender.name}`, LABELS[contender.name], contender.name, 'ms', summary);
    ctx.log(`item 1: ${contender.name} median ${summary.median.toFixed(1)} ms`);
  });
  results.note(
    CAPTURE_SECTION,
    'contenders alternate run by run, so load elsewhere on the machine weighs on all alike',
  );
  results.ratio(CAPTURE_SECTION, 'turnback / raw', 'capture.turnback', 'capture.raw', 3);
  results.ratio(CAPTURE_SECTION, 'turnback / shadow-git', 'capture.turnback', 'capture.shadow-git', 0.1);
}
