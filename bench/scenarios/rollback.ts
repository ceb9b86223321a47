// Item 2: rolling back a turn of 10, 100 and 1,000 written files, per contender.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from '../context.js';
import type { Contender } from '../contenders/contender.js';
import { rssSupported, startRssWindow, type RssPeak, type RssWindow } from '../rss.js';
import { repeat, summarize } from '../stats.js';
import { editsFor, PathPicker } from '../workloads.js';
import { contendersOf, type Arena } from './arena.js';
import { MEMORY_SECTION } from './memory.js';

export const ROLLBACK_SECTION = '2';

const LABELS: Record<string, string> = {
  raw: 'raw durable copy',
  'shadow-git': 'shadow-git git restore --source',
  turnback: 'turnback rollback(turnId)',
};

interface PreparedTurn {
  handle: string;
  rss?: RssWindow;
  paths: string[];
  /** Bytes of a few paths before the turn: checked after each rollback. */
  originals: Map<string, Buffer>;
}

async function prepareTurn(contender: Contender, arena: Arena, paths: string[], editId: number): Promise<PreparedTurn> {
  const originals = new Map<string, Buffer>();
  for (const p of paths.slice(0, 3)) originals.set(p, await readFile(path.join(contender.workspace, p)));
  await contender.beforeTurn(paths);
  const edits = await editsFor(arena.workload, paths, editId);
  const handle = await contender.turn(edits, `rollback bench ${editId}`);
  return { handle, paths, originals };
}

async function checkRestored(contender: Contender, turn: PreparedTurn): Promise<void> {
  for (const [p, bytes] of turn.originals) {
    const now = await readFile(path.join(contender.workspace, p));
    if (!now.equals(bytes)) throw new Error(`${contender.name} rollback left ${p} different from its state before the turn`);
  }
}

export async function rollbackScenario(ctx: BenchContext, arena: Arena): Promise<void> {
  const { results, config } = ctx;
  const largest = Math.max(...config.rollbackSizes);
  for (const size of config.rollbackSizes) {
    for (const contender of contendersOf(arena)) {
      const picker = new PathPicker(arena.workload.paths, 0x0b0c + size);
      // Item 6: the largest turnback rollback's peak memory, from the runs timed here.
      const watchRss = contender.name === 'turnback' && size === largest && rssSupported();
      const peaks: RssPeak[] = [];
      const summary = await repeat<PreparedTurn>((turn) => contender.rollback(turn.handle, turn.paths), {
        runs: config.runs,
        // The smaller sizes already warmed every code path; a 1,000-file warm-up costs seconds.
        warmup: size === config.rollbackSizes[0] ? 1 : 0,
        setup: async (run) => {
          const turn = await prepareTurn(contender, arena, picker.take(size), 100_000 + size * 10 + run * size);
          if (watchRss) turn.rss = startRssWindow();
          return turn;
        },
        after: async (_run, turn) => {
          if (turn.rss) peaks.push(turn.rss.finish());
          await checkRestored(contender, turn);
        },
      });
      if (peaks.length > 0) recordRollbackRss(ctx, size, peaks);
      results.figure(ROLLBACK_SECTION, `rollback.${size}.${contender.name}`, `${size} files: ${LABELS[contender.name]}`,
        contender.name, 'ms', summary);
      ctx.log(`item 2: ${size} files ${contender.name} median ${summary.median.toFixed(1)} ms`);
    }
    results.ratio(ROLLBACK_SECTION, `${size} files turnback / raw`, `rollback.${size}.turnback`, `rollback.${size}.raw`, 3);
    results.ratio(ROLLBACK_SECTION, `${size} files turnback / shadow-git`, `rollback.${size}.turnback`, `rollback.${size}.shadow-git`, 1);
  }
}

function recordRollbackRss(ctx: BenchContext, size: number, peaks: RssPeak[]): void {
  const label = `rollback of ${size} files (W2, during item 2)`;
  ctx.results.figure(MEMORY_SECTION, 'rss.rollback.growth', `${label}: peak RSS above RSS before it`, 'turnback', 'bytes',
    summarize(peaks.map((p) => p.growthBytes)));
  ctx.results.figure(MEMORY_SECTION, 'rss.rollback.peak', `${label}: peak RSS of the bench process`, 'turnback', 'bytes',
    summarize(peaks.map((p) => p.peakBytes)));
  ctx.results.figure(MEMORY_SECTION, 'rss.rollback.live', `${label}: peak JS heap + buffers above before (garbage included)`, 'turnback', 'bytes',
    summarize(peaks.map((p) => p.liveGrowthBytes)));
}
