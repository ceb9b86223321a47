// Item 10: a real history (commander.js, ../shared/data/) replayed as agent turns: store bytes
// against a gc-packed shadow git of the same snapshots, each turn against `git add -A && git
// commit` and against the raw durable writes (with and without the flush before each call),
// rollback and rewind against `git restore`. Every workspace is checked against git's own
// tree of the commit it should hold.
import path from 'node:path';
import type { BenchContext } from '../context.js';
import { engineRollback } from '../contenders/turnback.js';
import { flushFilesystem, removeTree, treeSize } from '../fs-tools.js';
import { replayHistory, HISTORY_SESSION, type Replayed } from '../history/replay.js';
import { COMMANDER_SPAN, loadHistory, treeMatches, type History, type HistorySpan } from '../history/source.js';
import { summarize } from '../stats.js';
import { storeComposition } from '../store-composition.js';

export const HISTORY_SECTION = '10';

const NAME = 'commander.js';
/** Rewinds over the whole session are long: a few runs are enough. */
const REWIND_RUNS = 3;

export async function historyScenario(ctx: BenchContext): Promise<void> {
  const { results, config } = ctx;
  if (!ctx.openEngine) return;
  const span: HistorySpan = { ...COMMANDER_SPAN, turns: config.historyTurns };
  const base = ctx.path('history');
  const history = await loadHistory(span, path.join(base, 'source.git'));
  if (!history) {
    results.notMeasured(HISTORY_SECTION, `${span.bundle} is not there`);
    return;
  }
  const stride =
    span.commits === history.turns.length ? 'one turn per commit' : `${history.turns.length} evenly spaced snapshots`;
  results.note(
    HISTORY_SECTION,
    `${NAME}: ${span.commits} first-parent commits after ${span.base.slice(0, 8)} replayed as ${history.turns.length} turns (${stride}), ` +
      `${history.turns.reduce((n, t) => n + t.ops.length, 0)} operations, ${(history.writtenBytes / 1e6).toFixed(1)} MB written`,
  );
  const started = performance.now();
  const replayed = await replayHistory(ctx, ctx.openEngine, history, base);
  ctx.log(`item 10: replayed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  try {
    const last = history.turns[history.turns.length - 1].commit;
    for (const dir of [
      replayed.git.workspace,
      replayed.rawDir,
      replayed.rawNoFlushDir,
      replayed.turnback.workspace,
      replayed.turnbackNoFlush.workspace,
    ]) {
      await expectTree(history, last, dir, base);
    }
    recordTurns(ctx, replayed);
    await replayed.turnbackNoFlush.engine.close();
    await storeBytes(ctx, replayed);
    await rollbacks(ctx, history, replayed, base);
  } finally {
    await replayed.turnback.engine.close();
    await removeTree(base);
  }
}

async function expectTree(history: History, commit: string, dir: string, base: string): Promise<void> {
  if (!(await treeMatches(history.gitDir, commit, dir, path.join(base, 'check.index')))) {
    throw new Error(`${dir} does not hold the tree of ${commit}`);
  }
}

function recordTurns(ctx: BenchContext, replayed: Replayed): void {
  const { results } = ctx;
  const s = replayed.samples;
  const figure = (id: string, label: string, contender: string, samples: number[]) =>
    results.figure(HISTORY_SECTION, `history.turn.${id}`, `per turn: ${label}`, contender, 'ms', summarize(samples));
  figure('raw', 'raw durable writes, flushed before', 'raw', s.raw);
  figure('git', 'shadow-git writes + git add -A + git commit', 'shadow-git', s.git);
  figure('turnback', 'turnback turn, flushed before', 'turnback', s.turnback);
  figure('rawNoFlush', 'raw durable writes, no flush before', 'raw', s.rawNoFlush);
  figure('turnbackNoFlush', 'turnback turn, no flush before', 'turnback', s.turnbackNoFlush);
  results.ratio(
    HISTORY_SECTION,
    `${NAME} per turn turnback / raw (flushed before)`,
    'history.turn.turnback',
    'history.turn.raw',
    3,
  );
  results.ratio(
    HISTORY_SECTION,
    `${NAME} per turn turnback / raw (no flush)`,
    'history.turn.turnbackNoFlush',
    'history.turn.rawNoFlush',
    3,
  );
  results.ratio(HISTORY_SECTION, `${NAME} per turn turnback / shadow-git`, 'history.turn.turnback', 'history.turn.git');
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / 1000;
  results.note(
    HISTORY_SECTION,
    `whole replay: raw ${total(s.raw).toFixed(1)} s, shadow-git ${total(s.git).toFixed(1)} s, turnback ${total(s.turnback).toFixed(1)} s ` +
      `(no flush: raw ${total(s.rawNoFlush).toFixed(1)} s, turnback ${total(s.turnbackNoFlush).toFixed(1)} s)`,
  );
}

async function storeBytes(ctx: BenchContext, replayed: Replayed): Promise<void> {
  const { results } = ctx;
  const side = replayed.turnback;
  const stats = side.engine.storeStats();
  // Measured closed, as git's dir is at rest: nothing left in SQLite's WAL.
  await side.engine.close();
  const store = await treeSize(side.dataDir);
  side.engine = await ctx.openEngine!({ workspace: side.workspace, dataDir: side.dataDir, keepSessions: 0 });
  const loose = await treeSize(replayed.git.gitDir);
  const started = performance.now();
  await replayed.git.git('gc', '-q');
  ctx.log(`item 10: git gc ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const packed = await treeSize(replayed.git.gitDir);
  results.figure(
    HISTORY_SECTION,
    'history.store.git',
    `${NAME}: shadow git dir (loose objects)`,
    'shadow-git',
    'bytes',
    loose.bytes,
  );
  results.figure(
    HISTORY_SECTION,
    'history.store.git-packed',
    `${NAME}: shadow git dir after git gc`,
    'shadow-git',
    'bytes',
    packed.bytes,
  );
  results.figure(
    HISTORY_SECTION,
    'history.store.turnback',
    `${NAME}: turnback store`,
    'turnback',
    'bytes',
    store.bytes,
  );
  const parts = storeComposition(side.dataDir);
  results.figure(
    HISTORY_SECTION,
    'history.store.turnback-contents',
    `${NAME}: turnback store, its contents (rows and parts)`,
    'turnback',
    'bytes',
    parts.contents,
  );
  results.note(
    HISTORY_SECTION,
    `turnback keeps ${stats.blobs} contents of ${(stats.bytes / 1e6).toFixed(1)} MB in ${kib(parts.contents)}; ` +
      `the rest of its store: ${kib(parts.metadata)} of metadata (${parts.largest.map((t) => `${t.name} ${kib(t.bytes)}`).join(', ')}), ${kib(parts.free)} free`,
  );
  results.ratio(
    HISTORY_SECTION,
    `${NAME} turnback store / packed shadow git dir`,
    'history.store.turnback',
    'history.store.git-packed',
    0.5,
  );
  results.ratio(
    HISTORY_SECTION,
    `${NAME} turnback contents alone / packed shadow git dir`,
    'history.store.turnback-contents',
    'history.store.git-packed',
  );
}

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** Git's restore of a whole snapshot, as Gemini CLI does it: restore, then clean. */
async function gitRestore(replayed: Replayed, commit: string): Promise<void> {
  await replayed.git.git('restore', `--source=${commit}`, '--staged', '--worktree', '--', '.');
  await replayed.git.git('clean', '-fdq');
}

async function timedPair(dirs: string[], bodies: (() => Promise<unknown>)[]): Promise<number[]> {
  const out: number[] = [];
  for (const [i, body] of bodies.entries()) {
    await flushFilesystem(dirs[i]);
    const start = performance.now();
    await body();
    out.push(performance.now() - start);
  }
  return out;
}

async function rollbacks(ctx: BenchContext, history: History, replayed: Replayed, base: string): Promise<void> {
  const { results, config } = ctx;
  const side = replayed.turnback;
  const engine = () => side.engine;
  const dirs = [replayed.git.workspace, side.workspace];
  const turns = history.turns.length;
  const runs = Math.min(config.runs, turns - 1);
  const samples = { git: [] as number[], turnback: [] as number[] };
  // The newest turns first, each rolled back on top of the one before.
  for (let r = 0; r < runs; r++) {
    const target = turns - 1 - r; // the snapshot index the tree goes back to
    const [g, t] = await timedPair(dirs, [
      () => gitRestore(replayed, replayed.gitCommits[target]),
      () => engineRollback(engine(), side.turnIds[turns - 1 - r]),
    ]);
    samples.git.push(g);
    samples.turnback.push(t);
    await engine().settled();
    const commit = target === 0 ? history.base : history.turns[target - 1].commit;
    for (const dir of dirs) await expectTree(history, commit, dir, base);
  }
  results.figure(
    HISTORY_SECTION,
    'history.rollback.git',
    `rollback of the newest turn: git restore --source + git clean`,
    'shadow-git',
    'ms',
    summarize(samples.git),
  );
  results.figure(
    HISTORY_SECTION,
    'history.rollback.turnback',
    `rollback of the newest turn: turnback rollback(turnId)`,
    'turnback',
    'ms',
    summarize(samples.turnback),
  );
  results.ratio(
    HISTORY_SECTION,
    `${NAME} rollback turnback / git restore`,
    'history.rollback.turnback',
    'history.rollback.git',
    1,
  );

  const after = turns - runs; // the snapshot the rollbacks left
  const rewind = { git: [] as number[], turnback: [] as number[], covered: 0 };
  for (let r = 0; r < Math.min(REWIND_RUNS, config.runs); r++) {
    if (r === 0) rewind.covered = engine().listTurns(HISTORY_SESSION, { limit: 1_000_000 }).length;
    let rewindTurn: string | null = null;
    const [g, t] = await timedPair(dirs, [
      () => gitRestore(replayed, replayed.gitCommits[0]),
      async () => {
        const result = await engine().rewind(HISTORY_SESSION, { toTurnId: side.turnIds[0] });
        if (!result.ok) throw new Error(`rewind failed: ${JSON.stringify(result.errors.slice(0, 3))}`);
        rewindTurn = result.rollbackTurnId;
      },
    ]);
    rewind.git.push(g);
    rewind.turnback.push(t);
    await engine().settled();
    for (const dir of dirs) await expectTree(history, history.base, dir, base);
    // Back to where the rollbacks left the tree (untimed), for the next run.
    await gitRestore(replayed, replayed.gitCommits[after]);
    await engineRollback(engine(), rewindTurn!);
    await engine().settled();
    for (const dir of dirs) await expectTree(history, history.turns[after - 1].commit, dir, base);
  }
  results.figure(
    HISTORY_SECTION,
    'history.rewind.git',
    `rewind to the first turn: git restore --source + git clean`,
    'shadow-git',
    'ms',
    summarize(rewind.git),
  );
  results.figure(
    HISTORY_SECTION,
    'history.rewind.turnback',
    `rewind to the first turn (over ${rewind.covered} turns, more in later runs): turnback rewind`,
    'turnback',
    'ms',
    summarize(rewind.turnback),
  );
  results.ratio(
    HISTORY_SECTION,
    `${NAME} rewind turnback / git restore`,
    'history.rewind.turnback',
    'history.rewind.git',
    1,
  );
}
