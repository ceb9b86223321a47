// Items 3 and 4: per-turn costs in a store of few vs many turns, listSessions with 1 vs many
// sessions, and the cold open of the large store.
import type { Engine } from '../../server/engine/api.js';
import type { BenchContext } from '../context.js';
import { engineRollback, engineTurn, settleEngine, type OpenEngine } from '../contenders/turnback.js';
import { removeTree } from '../fs-tools.js';
import { repeatFast, summarize, type Summary } from '../stats.js';
import { editsFor, PathPicker, type Workload } from '../workloads.js';
import { seedSessions, seedTurns } from './seed.js';
import { seededStore } from './seeded-store.js';

export const SCALING_SECTION = '3';
export const COLD_OPEN_SECTION = '4';
const SESSION = 'scaling';

interface StoreUnderTest {
  label: string;
  workspace: string;
  dataDir: string;
  engine: Engine;
}

async function openStore(
  ctx: BenchContext,
  openEngine: OpenEngine,
  name: string,
  label: string,
  workload: Workload,
  seed: (engine: Engine) => Promise<void>,
): Promise<StoreUnderTest & { seedMs: number; onTmpfs: boolean }> {
  const seeded = await seededStore(ctx, name, workload, seed);
  const engine = await openEngine({ workspace: seeded.workspace, dataDir: seeded.dataDir, keepSessions: 0 });
  return { label, ...seeded, engine };
}

/** Mean milliseconds of `inner` calls of a synchronous function. */
function timeCalls(inner: number, body: () => unknown): number {
  const start = performance.now();
  for (let i = 0; i < inner; i++) body();
  return (performance.now() - start) / inner;
}

/**
 * Runs of the two stores alternate (small, large, small, large…), so load from elsewhere on
 * the machine lands on both alike and the ratio between them stays meaningful.
 */
async function interleaved(
  ctx: BenchContext,
  stores: StoreUnderTest[],
  sample: (store: StoreUnderTest, run: number) => Promise<number> | number,
): Promise<Summary[]> {
  const samples: number[][] = stores.map(() => []);
  for (let run = 0; run <= ctx.config.runs; run++) {
    for (let i = 0; i < stores.length; i++) {
      const ms = await sample(stores[i], run);
      if (run > 0) samples[i].push(ms); // run 0 warms up
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return samples.map((s) => summarize(s));
}

async function measureStores(ctx: BenchContext, stores: StoreUnderTest[], workload: Workload): Promise<void> {
  const { results } = ctx;
  const record = (what: string, label: (store: StoreUnderTest) => string, summaries: Summary[]): void => {
    stores.forEach((store, i) =>
      results.figure(SCALING_SECTION, `scaling.${store.label}.${what}`, label(store), 'turnback', 'ms', summaries[i]),
    );
  };
  const pickers = new Map(stores.map((store) => [store, new PathPicker(workload.paths, 0x5ca1e)]));
  const edits = async (store: StoreUnderTest, run: number) =>
    editsFor(workload, pickers.get(store)!.take(10), 300_000 + run * 10);
  const probes = new Map<StoreUnderTest, string>();
  for (const store of stores)
    probes.set(store, await engineTurn(store.engine, SESSION, await edits(store, 99), 'ten-file probe turn'));

  record(
    'getManifest',
    (s) => `${s.label}: getManifest of a 10-file turn`,
    await interleaved(ctx, stores, (store) => timeCalls(200, () => store.engine.getManifest(probes.get(store)!))),
  );

  record(
    'rollback',
    (s) => `${s.label}: rollback of a 10-file turn`,
    await interleaved(ctx, stores, async (store, run) => {
      const turnId = await engineTurn(store.engine, SESSION, await edits(store, run), `scaling rollback ${run}`);
      await settleEngine(store.engine);
      const start = performance.now();
      await engineRollback(store.engine, turnId);
      const elapsed = performance.now() - start;
      await settleEngine(store.engine);
      return elapsed;
    }),
  );

  const counts = new Map(stores.map((store) => [store, store.engine.listTurns(SESSION, { limit: 1_000_000 }).length]));
  record(
    'listTurns',
    (s) => `${s.label}: listTurns, per turn listed (${counts.get(s)} turns)`,
    await interleaved(ctx, stores, (store) => {
      const count = counts.get(store)!;
      return (
        timeCalls(Math.max(1, Math.floor(20_000 / count)), () =>
          store.engine.listTurns(SESSION, { limit: 1_000_000 }),
        ) / count
      );
    }),
  );
  // What the console asks for: the newest page.
  record(
    'listTurnsPage',
    (s) => `${s.label}: listTurns newest page (${Math.min(50, counts.get(s)!)} turns)`,
    await interleaved(ctx, stores, (store) => timeCalls(200, () => store.engine.listTurns(SESSION, { limit: 50 }))),
  );
}

export async function scalingScenario(ctx: BenchContext, wantsColdOpen: boolean): Promise<void> {
  const { config, results } = ctx;
  const openEngine = ctx.openEngine;
  if (!openEngine) return;
  const workload = await ctx.workload(config.w1);
  const small = `${config.smallStoreTurns} turns`;
  const large = `${config.largeStoreTurns.toLocaleString('en-US')} turns`;

  const smallStore = await openStore(ctx, openEngine, 'small', small, workload, (engine) =>
    seedTurns(engine, SESSION, workload, config.smallStoreTurns, 200_000).then(() => undefined),
  );
  const largeStore = await openStore(ctx, openEngine, 'large', large, workload, (engine) =>
    seedTurns(engine, SESSION, workload, config.largeStoreTurns, 400_000, (done, total) =>
      ctx.log(`item 3: seeded ${done} of ${total} turns`),
    ).then(() => undefined),
  );
  results.note(
    SCALING_SECTION,
    `stores seeded through the library API${largeStore.onTmpfs ? ' on tmpfs, then copied to disk' : ''}: ` +
      `${large} (input, 1 file write, 1 message, turnEnd each) in ${(largeStore.seedMs / 1000).toFixed(1)} s, ` +
      `${(largeStore.seedMs / config.largeStoreTurns).toFixed(2)} ms per turn`,
  );
  results.note(
    SCALING_SECTION,
    'runs alternate between the two stores, so load elsewhere on the machine weighs on both alike',
  );
  await measureStores(ctx, [smallStore, largeStore], workload);
  for (const what of ['getManifest', 'rollback', 'listTurns'] as const) {
    results.ratio(
      SCALING_SECTION,
      `${what} per turn, ${large} / ${small}`,
      `scaling.${large}.${what}`,
      `scaling.${small}.${what}`,
      1.5,
    );
  }
  const oneSession = await repeatFast(() => smallStore.engine.listSessions(), config.runs, 200);
  results.figure(SCALING_SECTION, 'scaling.sessions.1', 'listSessions with 1 session', 'turnback', 'ms', oneSession);
  await smallStore.engine.close();
  await removeTree(ctx.path('store-small'));

  await largeStore.engine.close();
  if (wantsColdOpen) await coldOpen(ctx, openEngine, largeStore, large);
  await removeTree(ctx.path('store-large'));

  const sessionsStore = await openStore(ctx, openEngine, 'sessions', 'sessions', workload, (engine) =>
    seedSessions(engine, workload, config.manySessions, 600_000),
  );
  const many = await repeatFast(
    () => sessionsStore.engine.listSessions(),
    config.runs,
    Math.max(1, Math.floor(20_000 / config.manySessions)),
  );
  results.figure(
    SCALING_SECTION,
    'scaling.sessions.many',
    `listSessions with ${config.manySessions.toLocaleString('en-US')} sessions`,
    'turnback',
    'ms',
    many,
  );
  results.ratio(
    SCALING_SECTION,
    `listSessions ${config.manySessions} / 1 session`,
    'scaling.sessions.many',
    'scaling.sessions.1',
  );
  await sessionsStore.engine.close();
  await removeTree(ctx.path('store-sessions'));
}

async function coldOpen(
  ctx: BenchContext,
  openEngine: OpenEngine,
  store: StoreUnderTest,
  label: string,
): Promise<void> {
  const opens: number[] = [];
  const firstPages: number[] = [];
  for (let run = 0; run < ctx.config.runs; run++) {
    const start = performance.now();
    const engine = await openEngine({ workspace: store.workspace, dataDir: store.dataDir, keepSessions: 0 });
    const opened = performance.now();
    engine.listSessions();
    engine.listTurns(SESSION, { limit: 50 });
    const listed = performance.now();
    await engine.close();
    opens.push(opened - start);
    firstPages.push(listed - start);
  }
  ctx.results.figure(
    COLD_OPEN_SECTION,
    'coldOpen.open',
    `openEngine on a closed store of ${label}`,
    'turnback',
    'ms',
    summarize(opens),
  );
  ctx.results.figure(
    COLD_OPEN_SECTION,
    'coldOpen.firstPage',
    'openEngine + listSessions + first listTurns page',
    'turnback',
    'ms',
    summarize(firstPages),
  );
  ctx.results.note(COLD_OPEN_SECTION, 'in-process after the store was closed; OS page cache warm');
}
