// Item 14: turnback beside Gemini CLI's own checkpoints on W2 (contenders/gemini-checkpoints.ts
// replicates what Gemini runs). turnback runs as the service does: its index built when the
// workspace is registered, which stores every file's content, as Gemini's first checkpoint
// commits the whole tree. Then the same turns on both: item 5's turns of small edits, kept; then
// turns that write 1,000 files, each rolled back (Gemini: its checkpoint before the turn's
// first write, /restore to it). Last, the bytes each keeps.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BenchContext } from '../context.js';
import { geminiCheckpoints, type GeminiCheckpoints } from '../contenders/gemini-checkpoints.js';
import { engineRollback, engineTurn, turnbackContender, type TurnbackContender } from '../contenders/turnback.js';
import { copyTree, flushFilesystem, removeTree, treeSize } from '../fs-tools.js';
import { storeComposition } from '../store-composition.js';
import { summarize } from '../stats.js';
import { editsFor, PathPicker, type FileEdit, type Workload } from '../workloads.js';

export const GEMINI_SECTION = '14';
const ROLLBACK_FILES = 1000;
/** `git gc` of the shadow repo is measured only if it ends within this. */
const GC_LIMIT_MS = 60_000;

const run = promisify(execFile);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

interface Sides {
  workload: Workload;
  gemini: GeminiCheckpoints;
  turnback: TurnbackContender;
}

export async function geminiScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  const workload = await ctx.workload(ctx.config.w2);
  const base = ctx.path('gemini-W2');
  const workspaces = { gemini: path.join(base, 'gemini-workspace'), turnback: path.join(base, 'turnback-workspace') };
  await copyTree(workload.dir, workspaces.gemini);
  await copyTree(workload.dir, workspaces.turnback);
  const dataDir = path.join(base, 'turnback-data');
  const turnback = await turnbackContender(ctx.openEngine, { workspace: workspaces.turnback, dataDir });
  try {
    const gemini = await geminiCheckpoints(workspaces.gemini, path.join(base, 'home/.gemini/history/w2'));
    const sides: Sides = { workload, gemini, turnback };
    await firstRecords(ctx, sides);
    await keptTurns(ctx, sides);
    await rollbacks(ctx, sides);
    await storeSizes(ctx, sides, dataDir);
  } finally {
    await turnback.close();
    await removeTree(base);
  }
  ctx.results.note(
    GEMINI_SECTION,
    "Gemini CLI 0.61.0's GitService run as it runs it: shadow repo in ~/.gemini/history/<project>/.git over the workspace, " +
      "its .gitconfig and safe-git environment, a checkpoint before a turn's first write (git add . , git status, " +
      'git commit --no-verify when not clean), /restore = git restore --source <hash> . + git clean -f -d, ' +
      "git's auto gc on. Gemini checkpoints before each batch of write tool calls: one batch per turn here, " +
      'its fewest commits (a turn of one write per model reply would commit before each)',
  );
}

/** Gemini's first checkpoint (the whole tree) and turnback's index build: each side's cost of knowing the tree. */
async function firstRecords(ctx: BenchContext, { gemini, turnback }: Sides): Promise<void> {
  let started = performance.now();
  const index = await turnback.engine.buildIndex();
  const indexMs = performance.now() - started;
  if (index.state !== 'whole') throw new Error(`the index build ended ${index.state}: ${index.reason ?? ''}`);
  started = performance.now();
  await gemini.checkpoint('Snapshot for write_file');
  const checkpointMs = performance.now() - started;
  await gemini.waitForAutoGc();
  ctx.results.note(
    GEMINI_SECTION,
    `first record of the tree: Gemini's first checkpoint ${(checkpointMs / 1000).toFixed(1)} s, ` +
      `turnback's index build ${(indexMs / 1000).toFixed(1)} s (${(index.bytesStored / 1e6).toFixed(0)} MB stored)`,
  );
  ctx.log(`item 14: first checkpoint ${checkpointMs.toFixed(0)} ms, index build ${indexMs.toFixed(0)} ms`);
}

/**
 * Agents write files themselves. Gemini checkpoints before each batch of write tool calls (the
 * later calls of a batch find the status clean): a turn here is one batch, its cheapest case.
 */
async function geminiTurn(gemini: GeminiCheckpoints, edits: FileEdit[]): Promise<string> {
  const commit = await gemini.checkpoint('Snapshot for write_file');
  await gemini.waitForAutoGc();
  for (const edit of edits) await writeFile(path.join(gemini.workspace, edit.path), edit.content);
  return commit;
}

async function keptTurns(ctx: BenchContext, { workload, gemini, turnback }: Sides): Promise<void> {
  const { storageTurns, storageEditsPerTurn } = ctx.config;
  const picker = new PathPicker(workload.paths, 0x6e31);
  for (let turn = 0; turn < storageTurns; turn++) {
    const edits = await editsFor(workload, picker.take(storageEditsPerTurn), 70_000 + turn * 100);
    await geminiTurn(gemini, edits);
    await turnback.turn(edits, `turn ${turn + 1}`);
  }
  await turnback.settle?.();
}

async function rollbacks(ctx: BenchContext, { workload, gemini, turnback }: Sides): Promise<void> {
  const { config, results } = ctx;
  const picker = new PathPicker(workload.paths, 0x6e32);
  const samples = { gemini: [] as number[], turnback: [] as number[] };
  // The first run warms both up on a 10-file turn and is not counted.
  for (let r = 0; r <= config.runs; r++) {
    const paths = picker.take(r === 0 ? 10 : ROLLBACK_FILES);
    const edits = await editsFor(workload, paths, 80_000 + r * ROLLBACK_FILES);
    const sample = paths.slice(0, 3);
    const originals = await Promise.all(sample.map((p) => readFile(path.join(gemini.workspace, p))));

    const commit = await geminiTurn(gemini, edits);
    const turnId = await engineTurn(turnback.engine, turnback.sessionId, edits, `write ${paths.length}`);
    await turnback.settle?.();
    // Alternate which goes first, so the load of the machine weighs on both alike.
    const timed: [keyof typeof samples, () => Promise<unknown>, string][] = [
      ['gemini', () => gemini.restore(commit), gemini.workspace],
      ['turnback', () => engineRollback(turnback.engine, turnId), turnback.workspace],
    ];
    if (r % 2) timed.reverse();
    for (const [name, body, workspace] of timed) {
      await flushFilesystem(workspace);
      const start = performance.now();
      await body();
      if (r > 0) samples[name].push(performance.now() - start);
      for (const [i, p] of sample.entries())
        if (!(await readFile(path.join(workspace, p))).equals(originals[i]))
          throw new Error(`${name}'s rollback left ${p} different from its state before the turn`);
    }
    await turnback.settle?.();
  }
  const label = `rollback of a turn that wrote ${ROLLBACK_FILES.toLocaleString('en-US')} files`;
  results.figure(
    GEMINI_SECTION,
    'gemini.rollback.gemini',
    `${label}: Gemini /restore`,
    'gemini',
    'ms',
    summarize(samples.gemini),
  );
  results.figure(
    GEMINI_SECTION,
    'gemini.rollback.turnback',
    `${label}: turnback rollback(turnId)`,
    'turnback',
    'ms',
    summarize(samples.turnback),
  );
  results.ratio(GEMINI_SECTION, `${label}: turnback / Gemini`, 'gemini.rollback.turnback', 'gemini.rollback.gemini', 1);
  ctx.log(
    `item 14: rollback gemini ${summarize(samples.gemini).median.toFixed(0)} ms, turnback ${summarize(samples.turnback).median.toFixed(0)} ms`,
  );
}

async function storeSizes(ctx: BenchContext, { gemini, turnback }: Sides, dataDir: string): Promise<void> {
  const { results, config } = ctx;
  const label = `after the turns (W2 indexed, ${config.storageTurns} × ${config.storageEditsPerTurn} edits kept, ${config.runs + 1} rolled back)`;
  await gemini.waitForAutoGc();
  const repo = await gemini.storeSize();
  results.figure(
    GEMINI_SECTION,
    'gemini.store.gemini',
    `${label}: Gemini's shadow .git`,
    'gemini',
    'bytes',
    repo.bytes,
  );
  // At rest, as the repo is: the packing done, then measured closed (nothing left in the WAL).
  await turnback.settle?.();
  await turnback.close();
  const store = await treeSize(dataDir);
  const parts = storeComposition(dataDir);
  results.figure(GEMINI_SECTION, 'gemini.store.turnback', `${label}: turnback store`, 'turnback', 'bytes', store.bytes);
  results.ratio(
    GEMINI_SECTION,
    `store: turnback / Gemini's shadow repo`,
    'gemini.store.turnback',
    'gemini.store.gemini',
    0.5,
  );
  results.note(
    GEMINI_SECTION,
    `on disk (du): turnback ${mib(store.diskBytes)} in ${store.files} files (contents ${mib(parts.contents)}, ` +
      `metadata ${mib(parts.metadata)}, free ${mib(parts.free)}); Gemini's .git ${mib(repo.diskBytes)} in ${repo.files} files`,
  );

  const started = performance.now();
  try {
    await run('git', ['gc', '-q'], { env: { ...process.env, GIT_DIR: gemini.gitDir }, timeout: GC_LIMIT_MS });
  } catch (error) {
    results.note(GEMINI_SECTION, `git gc of the shadow repo not measured: ${gcFailure(error)}`);
    return;
  }
  ctx.log(`item 14: git gc ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const packed = await gemini.storeSize();
  results.figure(
    GEMINI_SECTION,
    'gemini.store.gemini-packed',
    `${label}: Gemini's shadow .git after git gc`,
    'gemini',
    'bytes',
    packed.bytes,
  );
  results.ratio(
    GEMINI_SECTION,
    `store: turnback / Gemini's repo after git gc`,
    'gemini.store.turnback',
    'gemini.store.gemini-packed',
    0.5,
  );
}

function gcFailure(error: unknown): string {
  const e = error as { killed?: boolean; message?: string };
  if (e.killed) return `it took over ${GC_LIMIT_MS / 1000} s`;
  return (e.message ?? String(error)).split('\n')[0];
}
