// Items 3 and 4: per-turn costs in a store of few vs many turns, listSessions with 1 vs many
// sessions, and the cold open of the large store.
import type { Engine } from '../../server/engine/api.js';
import type { BenchContext } from '../context.js';
import { engineRollback, engineTurn, type OpenEngine } from '../contenders/turnback.js';
import { removeTree } from '../fs-tools.js';
import { repeat, repeatFast, summarize, type Summary } from '../stats.js';
import { editsFor, PathPicker, type Workload } from '../workloads.js';
import { seedSessions, seedTurns } from './seed.js';
import { seededStore } from './seeded-store.js';

export const SCALING_SECTION = '3';
export const COLD_OPEN_SECTION = '4';
const SESSION = 'scaling';

interface StoreUnderTest {
  turns: number;
  workspace: string;
  dataDir: string;
  engine: Engine;
}

async function openStore(ctx: BenchContext, openEngine: OpenEngine, name: string, workload: Workload,
  seed: (engine: Engine) => Promise<void>): Promise<StoreUnderTest & { seedMs: number; onTmpfs: boolean }> {
  const seeded = await seededStore(ctx, name, workload, seed);
  const engine = await openEngine({ workspace: seeded.workspace, dataDir: seeded.dataDir, keepSessions: 0 });
  return { turns: 0, ...seeded, engine };
}

function perItem(summary: Summary, count: number): Summary {
  return summarize(summary.samples.map((ms) => ms / count));
}

async function measureStore(ctx: BenchContext, store: StoreUnderTest, workload: Workload, label: string): Promise<void> {
  const { results, config } = ctx;
  const { engine } = store;
  const picker = new PathPicker(workload.paths, 0x5ca1e);
  const edits = async (run: number) => editsFor(workload, picker.take(10), 300_000 + store.turns * 3 + run * 10);

  const probe = await engineTurn(engine, SESSION, await edits(99), 'ten-file probe turn');
  const manifest = await repeatFast(() => engine.getManifest(probe), config.runs, 200);
  results.figure(SCALING_SECTION, `scaling.${label}.getManifest`, `${label}: getManifest of a 10-file turn`, 'turnback', 'ms', manifest);

  const rollback = await repeat<string>((turnId) => engineRollback(engine, turnId), {
    runs: config.runs,
    setup: async (run) => engineTurn(engine, SESSION, await edits(run), `scaling rollback ${run}`),
  });
  results.figure(SCALING_SECTION, `scaling.${label}.rollback`, `${label}: rollback of a 10-file turn`, 'turnback', 'ms', rollback);

  const count = engine.listTurns(SESSION, { limit: 1_000_000 }).length;
  const inner = Math.max(1, Math.floor(20_000 / count));
  const full = await repeatFast(() => engine.listTurns(SESSION, { limit: 1_000_000 }), config.runs, inner);
  results.figure(SCALING_SECTION, `scaling.${label}.listTurns`, `${label}: listTurns, per turn listed (${count} turns)`, 'turnback', 'ms', perItem(full, count));
  // What the console asks for: the newest page.
  const page = await repeatFast(() => engine.listTurns(SESSION, { limit: 50 }), config.runs, 200);
  results.figure(SCALING_SECTION, `scaling.${label}.listTurnsPage`, `${label}: listTurns newest page (${Math.min(50, count)} turns)`, 'turnback', 'ms', page);
}

export async function scalingScenario(ctx: BenchContext, wantsColdOpen: boolean): Promise<void> {
  const { config, results } = ctx;
  const openEngine = ctx.openEngine;
  if (!openEngine) return;
  const workload = await ctx.workload(config.w1);
  const small = `${config.smallStoreTurns} turns`;
  const large = `${config.largeStoreTurns.toLocaleString('en-US')} turns`;

  const smallStore = await openStore(ctx, openEngine, 'small', workload,
    (engine) => seedTurns(engine, SESSION, workload, config.smallStoreTurns, 200_000).then(() => undefined));
  smallStore.turns = config.smallStoreTurns;
  await measureStore(ctx, smallStore, workload, small);
  const oneSession = await repeatFast(() => smallStore.engine.listSessions(), config.runs, 200);
  results.figure(SCALING_SECTION, 'scaling.sessions.1', 'listSessions with 1 session', 'turnback', 'ms', oneSession);
  await smallStore.engine.close();
  await removeTree(ctx.path('store-small'));

  const largeStore = await openStore(ctx, openEngine, 'large', workload,
    (engine) => seedTurns(engine, SESSION, workload, config.largeStoreTurns, 400_000,
      (done, total) => ctx.log(`item 3: seeded ${done} of ${total} turns`)).then(() => undefined));
  largeStore.turns = config.largeStoreTurns;
  results.note(SCALING_SECTION, `stores seeded through the library API${largeStore.onTmpfs ? ' on tmpfs, then copied to disk' : ''}: `
    + `${large} (input, 1 file write, 1 message, turnEnd each) in ${(largeStore.seedMs / 1000).toFixed(1)} s, `
    + `${(largeStore.seedMs / config.largeStoreTurns).toFixed(2)} ms per turn`);
  await measureStore(ctx, largeStore, workload, large);
  for (const what of ['getManifest', 'rollback', 'listTurns'] as const) {
    results.ratio(SCALING_SECTION, `${what} per turn, ${large} / ${small}`, `scaling.${large}.${what}`, `scaling.${small}.${what}`, 1.5);
  }

  await largeStore.engine.close();
  if (wantsColdOpen) await coldOpen(ctx, openEngine, largeStore, large);
  await removeTree(ctx.path('store-large'));

  const sessionsStore = await openStore(ctx, openEngine, 'sessions', workload,
    (engine) => seedSessions(engine, workload, config.manySessions, 600_000));
  const many = await repeatFast(() => sessionsStore.engine.listSessions(), config.runs, Math.max(1, Math.floor(20_000 / config.manySessions)));
  results.figure(SCALING_SECTION, 'scaling.sessions.many', `listSessions with ${config.manySessions.toLocaleString('en-US')} sessions`, 'turnback', 'ms', many);
  results.ratio(SCALING_SECTION, `listSessions ${config.manySessions} / 1 session`, 'scaling.sessions.many', 'scaling.sessions.1');
  await sessionsStore.engine.close();
  await removeTree(ctx.path('store-sessions'));
}

async function coldOpen(ctx: BenchContext, openEngine: OpenEngine, store: StoreUnderTest, label: string): Promise<void> {
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
  ctx.results.figure(COLD_OPEN_SECTION, 'coldOpen.open', `openEngine on a closed store of ${label}`, 'turnback', 'ms', summarize(opens));
  ctx.results.figure(COLD_OPEN_SECTION, 'coldOpen.firstPage', 'openEngine + listSessions + first listTurns page', 'turnback', 'ms', summarize(firstPages));
  ctx.results.note(COLD_OPEN_SECTION, 'in-process after the store was closed; OS page cache warm');
}
