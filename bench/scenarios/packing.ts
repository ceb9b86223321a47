// Item 15: what the background packing a turn leaves costs the next turn (item 1's 10-file turn
// on a copy of W2), and what packing costs against capturing. Pairs of turns, the order within a
// pair alternating: a "busy" turn begins as soon as the turn before it has ended, its packing
// still to run; a "settled" turn begins once every packing is done. Each pair's two turns run
// back to back, so the load elsewhere on the machine weighs on both alike, and the figure is the
// median of the pairs' ratios with their spread, in wall time and in the process's CPU time.
// Both timed turns begin right after a turn of 10 writes ended; only the busy one's left
// contents to pack (the settled one's wrote bytes the files and the store already held).
// Besides: how long after a turn's end its contents are packed when the agent stays quiet (read
// from the store beside the engine), and the CPU packing takes against the capture's.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Engine } from '../../server/engine/api.js';
import type { BenchContext } from '../context.js';
import { engineTurn } from '../contenders/turnback.js';
import { copyTree, removeTree } from '../fs-tools.js';
import { createRng } from '../prng.js';
import { quantile, summarize } from '../stats.js';
import { editsFor, PathPicker, type FileEdit, type Workload } from '../workloads.js';

export const PACKING_SECTION = '15';
const FILES = 10;
const SESSION = 'bench-packing';
/** How often the time until a turn's contents are packed is looked at. */
const POLL_MS = 5;

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

interface Timed {
  ms: number;
  cpuMs: number;
}

export async function packingScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const workload = await ctx.workload(ctx.config.w2);
  const base = ctx.path('packing');
  const workspace = path.join(base, 'workspace');
  await copyTree(workload.dir, workspace);
  const engine = await ctx.openEngine({ workspace, dataDir: path.join(base, 'data'), keepSessions: 0 });
  try {
    await measure(ctx, engine, workload);
  } finally {
    await engine.close();
    await removeTree(base);
  }
}

async function measure(ctx: BenchContext, engine: Engine, workload: Workload): Promise<void> {
  const { results, config } = ctx;
  const picker = new PathPicker(workload.paths, 0x9ac4);
  let editId = 90_000;
  /** The last turn's writes: on disk and in the store, so writing them again leaves nothing to pack. */
  let last: FileEdit[] = [];
  const turn = async (): Promise<Timed> => {
    const edits = await editsFor(workload, picker.take(FILES), (editId += FILES));
    last = edits;
    const cpu = process.cpuUsage();
    const start = performance.now();
    await engineTurn(engine, SESSION, edits, 'packing bench');
    return { ms: performance.now() - start, cpuMs: cpuMs(process.cpuUsage(cpu)) };
  };
  const settled = async (): Promise<number> => {
    const cpu = process.cpuUsage();
    await engine.settled();
    return cpuMs(process.cpuUsage(cpu));
  };
  // A reader of the store beside the engine (WAL): the contents still raw, i.e. not yet packed.
  const reader = new Database(path.join(engine.dataDir, 'store', 'turnback.db'), { readonly: true });
  const unpacked = reader.prepare('SELECT COUNT(*) AS n FROM contents WHERE packed = 0 AND hash IS NOT NULL');
  /** With the agent quiet and nobody awaiting settled(): how long until packing is done by itself. */
  const packedByItself = async (): Promise<number> => {
    const start = performance.now();
    while ((unpacked.get() as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const ms = performance.now() - start;
    await engine.settled(); // the rest of the round (free pages, WAL)
    return ms;
  };
  for (let i = 0; i < 3; i++) await turn(); // warm-up
  await settled();

  const busy: Timed[] = [];
  const calm: Timed[] = [];
  const captureCpu: number[] = [];
  const packCpu: number[] = [];
  const packedAfter: number[] = [];
  /** Turns of known bytes that left contents to pack all the same (0 expected). */
  let leftSomething = 0;
  for (let pair = 0; pair < config.packingPairs; pair++) {
    const runs = [
      async () => {
        await turn(); // its packing is what the busy turn meets
        busy.push(await turn());
        await settled();
      },
      async () => {
        // A turn as the busy run's first, right before, that leaves nothing to pack: the same
        // 10 writes of bytes the files and the store already hold.
        await settled();
        await engineTurn(engine, SESSION, last, 'packing bench, nothing new');
        if ((unpacked.get() as { n: number }).n > 0) leftSomething++;
        const t = await turn();
        calm.push(t);
        captureCpu.push(t.cpuMs);
        packCpu.push(await settled());
      },
    ];
    if (pair % 2) runs.reverse();
    for (const run of runs) await run();
  }
  // Apart from the pairs, so the CPU figures above count no wait and no look at the store.
  for (let i = 0; i < config.runs; i++) {
    await turn();
    packedAfter.push(await packedByItself());
  }
  reader.close();

  const label = `${FILES}-file turn (W2)`;
  const ms = (xs: Timed[]) => summarize(xs.map((t) => t.ms));
  results.figure(
    PACKING_SECTION,
    'packing.next.settled',
    `${label} begun once packing is done`,
    'turnback',
    'ms',
    ms(calm),
  );
  results.figure(
    PACKING_SECTION,
    'packing.next.busy',
    `${label} begun right after a turn end, its packing pending`,
    'turnback',
    'ms',
    ms(busy),
  );
  const wall = busy.map((b, i) => b.ms / calm[i].ms);
  results.pairedRatio(
    PACKING_SECTION,
    `the next turn, packing pending / done (median of ${wall.length} pairs)`,
    'packing.next.busy',
    'packing.next.settled',
    wall,
    1.1,
  );
  if (leftSomething > 0)
    results.note(PACKING_SECTION, `${leftSomething} of the settled runs' first turns left contents to pack`);
  const cpu = busy.map((b, i) => b.cpuMs / calm[i].cpuMs);
  results.note(PACKING_SECTION, `wall time, pair by pair: ${spread(wall)}`);
  results.note(
    PACKING_SECTION,
    `process CPU during the turn, pair by pair (the packing's own CPU lands inside the busy turn): ${spread(cpu)}`,
  );

  results.figure(
    PACKING_SECTION,
    'packing.done-after',
    `a turn's contents packed, after its end (the agent quiet)`,
    'turnback',
    'ms',
    summarize(packedAfter),
  );
  results.figure(
    PACKING_SECTION,
    'packing.cpu.capture',
    `CPU: capturing a ${label}`,
    'turnback',
    'ms',
    summarize(captureCpu),
  );
  results.figure(
    PACKING_SECTION,
    'packing.cpu.pack',
    `CPU: packing it afterwards`,
    'turnback',
    'ms',
    summarize(packCpu),
  );
  results.pairedRatio(
    PACKING_SECTION,
    'CPU: packing a turn / capturing it (median of turns)',
    'packing.cpu.pack',
    'packing.cpu.capture',
    packCpu.map((p, i) => p / captureCpu[i]),
    1,
  );
  ctx.log(`item 15: next turn ${formatRatio(summarize(wall).median)} (${spread(wall)})`);
}

const formatRatio = (r: number) => `${r.toFixed(2)}×`;

/**
 * The pairs' median ratio with a 90% bootstrap interval of it (how sure the median is), the
 * middle half of the ratios (how they spread), and how many pairs the pending packing made slower.
 */
function spread(ratios: number[]): string {
  const slower = ratios.filter((r) => r > 1).length;
  const [low, high] = bootstrapMedian(ratios);
  return (
    `median ${formatRatio(quantile(ratios, 0.5))} (90% interval ${formatRatio(low)}–${formatRatio(high)}), ` +
    `middle half ${formatRatio(quantile(ratios, 0.25))}–${formatRatio(quantile(ratios, 0.75))}, ` +
    `slower in ${slower} of ${ratios.length} pairs`
  );
}

function bootstrapMedian(xs: number[], rounds = 2000): [number, number] {
  const rng = createRng(0xb007);
  const medians = Array.from({ length: rounds }, () =>
    quantile(
      Array.from(xs, () => xs[rng.int(xs.length)]),
      0.5,
    ),
  );
  return [quantile(medians, 0.05), quantile(medians, 0.95)];
}
