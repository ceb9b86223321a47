// Item 2: rolling back a turn of 10, 100 and 1,000 written files, per contender.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from '../context.js';
import type { Contender } from '../contenders/contender.js';
import { engineRollback, type TurnbackContender } from '../contenders/turnback.js';
import { flushFilesystem } from '../fs-tools.js';
import { rssSupported, startRssWindow, type RssPeak } from '../rss.js';
import { repeat, summarize, type Summary } from '../stats.js';
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
  await contender.settle?.();
  await flushFilesystem(contender.workspace);
  return { handle, paths, originals };
}

async function checkRestored(contender: Contender, turn: PreparedTurn): Promise<void> {
  for (const [p, bytes] of turn.originals) {
    const now = await readFile(path.join(contender.workspace, p));
    if (!now.equals(bytes))
      throw new Error(`${contender.name} rollback left ${p} different from its state before the turn`);
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
      if (contender.name === 'turnback') {
        const chained = await turnbackChain(
          ctx,
          contender as TurnbackContender,
          arena,
          picker.take(size),
          size,
          watchRss,
        );
        results.figure(
          ROLLBACK_SECTION,
          `rollback.${size}.turnback`,
          `${size} files: ${LABELS.turnback}`,
          'turnback',
          'ms',
          chained.summary,
        );
        if (chained.peaks.length > 0) recordRollbackRss(ctx, size, chained.peaks);
        ctx.log(`item 2: ${size} files turnback median ${chained.summary.median.toFixed(1)} ms`);
        continue;
      }
      const summary = await repeat<PreparedTurn>((turn) => contender.rollback(turn.handle, turn.paths), {
        runs: config.runs,
        // The smaller sizes already warmed every code path; a 1,000-file warm-up costs seconds.
        warmup: size === config.rollbackSizes[0] ? 1 : 0,
        setup: (run) => prepareTurn(contender, arena, picker.take(size), 100_000 + size * 10 + run * size),
        after: (_run, turn) => checkRestored(contender, turn),
      });
      results.figure(
        ROLLBACK_SECTION,
        `rollback.${size}.${contender.name}`,
        `${size} files: ${LABELS[contender.name]}`,
        contender.name,
        'ms',
        summary,
      );
      ctx.log(`item 2: ${size} files ${contender.name} median ${summary.median.toFixed(1)} ms`);
    }
    results.ratio(
      ROLLBACK_SECTION,
      `${size} files turnback / raw`,
      `rollback.${size}.turnback`,
      `rollback.${size}.raw`,
      3,
    );
    results.ratio(
      ROLLBACK_SECTION,
      `${size} files turnback / shadow-git`,
      `rollback.${size}.turnback`,
      `rollback.${size}.shadow-git`,
      1,
    );
  }
}

/**
 * turnback's runs form a chain: one agent turn, then each run rolls back the turn the previous
 * run recorded (a rollback is itself a turn that wrote the same files). Every run moves the
 * same files between the same two contents, and only the first needs a turn written through
 * the engine, which at several fsyncs per file is the costly part of the setup.
 */
async function turnbackChain(
  ctx: BenchContext,
  contender: TurnbackContender,
  arena: Arena,
  paths: string[],
  size: number,
  watchRss: boolean,
): Promise<{ summary: Summary; peaks: RssPeak[] }> {
  const { config } = ctx;
  const samplePaths = paths.slice(0, 3);
  const read = async (): Promise<Map<string, Buffer>> =>
    new Map(
      await Promise.all(samplePaths.map(async (p) => [p, await readFile(path.join(contender.workspace, p))] as const)),
    );
  let expected = await read();
  let turnId: string | null = await contender.turn(
    await editsFor(arena.workload, paths, 100_000 + size * 10),
    `rollback bench ${size}`,
  );
  await contender.settle?.();
  const warmup = size === config.rollbackSizes[0] ? 1 : 0;
  const samples: number[] = [];
  const peaks: RssPeak[] = [];
  for (let run = 0; run < warmup + config.runs; run++) {
    const before = await read();
    await flushFilesystem(contender.workspace);
    const rss = watchRss && run >= warmup ? startRssWindow() : null;
    const start = performance.now();
    const rolledBackBy: string | null = await engineRollback(contender.engine, turnId!);
    const elapsed = performance.now() - start;
    await contender.settle?.();
    if (rss) peaks.push(rss.finish());
    if (run >= warmup) samples.push(elapsed);
    for (const [p, bytes] of expected) {
      if (!(await readFile(path.join(contender.workspace, p))).equals(bytes))
        throw new Error(`turnback rollback left ${p} different from its state before the turn`);
    }
    if (!rolledBackBy) throw new Error('a rollback that changed files recorded no rollback turn');
    turnId = rolledBackBy;
    expected = before;
  }
  ctx.results.note(
    ROLLBACK_SECTION,
    'turnback runs chain: the first rolls back an agent turn, each next one the rollback turn before it (same files, same two contents)',
  );
  return { summary: summarize(samples), peaks };
}

function recordRollbackRss(ctx: BenchContext, size: number, peaks: RssPeak[]): void {
  const label = `rollback of ${size} files (W2, during item 2)`;
  ctx.results.figure(
    MEMORY_SECTION,
    'rss.rollback.peak',
    `${label}: peak RSS of the bench process`,
    'turnback',
    'bytes',
    summarize(peaks.map((p) => p.peakBytes)),
  );
  ctx.results.figure(
    MEMORY_SECTION,
    'rss.rollback.live',
    `${label}: peak JS heap + buffers above before (garbage included)`,
    'turnback',
    'bytes',
    summarize(peaks.map((p) => p.liveGrowthBytes)),
  );
}
