// Item 1: one agent turn writing 10 files in W2, per contender.
import type { BenchContext } from '../context.js';
import { repeat } from '../stats.js';
import { editsFor, PathPicker, type FileEdit } from '../workloads.js';
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
  results.figure(CAPTURE_SECTION, 'capture.git-first-snapshot',
    `shadow-git first snapshot of ${arena.workload.spec.name} (once)`, 'shadow-git', 'ms', arena.gitFirstSnapshotMs);
  for (const contender of contendersOf(arena)) {
    // The same seed per contender: each writes the same files with the same bytes.
    const picker = new PathPicker(arena.workload.paths, 0xca97);
    const summary = await repeat<FileEdit[]>((edits, run) => contender.turn(edits, `capture ${run}`), {
      runs: config.runs,
      setup: async (run) => {
        const paths = picker.take(n);
        await contender.beforeTurn(paths);
        return editsFor(arena.workload, paths, 10_000 + run * n);
      },
    });
    results.figure(CAPTURE_SECTION, `capture.${contender.name}`, LABELS[contender.name], contender.name, 'ms', summary);
    ctx.log(`item 1: ${contender.name} median ${summary.median.toFixed(1)} ms`);
  }
  results.ratio(CAPTURE_SECTION, 'turnback / raw', 'capture.turnback', 'capture.raw', 3);
  results.ratio(CAPTURE_SECTION, 'turnback / shadow-git', 'capture.turnback', 'capture.shadow-git', 0.1);
}
