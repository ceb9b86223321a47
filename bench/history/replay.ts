// The real history replayed side by side: each turn applied by every contender on its own copy
// of the same tree, in one loop, so load elsewhere on the machine weighs on all of them alike.
// Two pairs measure the capture against the raw floor: one with the filesystem flushed before
// each call (untimed, as in item 1), one without (each pays for whatever was left dirty).
import path from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import type { BenchContext } from '../context.js';
import type { OpenEngine } from '../contenders/turnback.js';
import { shadowGitContender, type ShadowGit } from '../contenders/shadow-git.js';
import { copyTree, flushFilesystem } from '../fs-tools.js';
import { applyDurably, applyPlainly, applyThroughEngine } from './apply.js';
import { checkoutTree, type History, type HistoryTurn } from './source.js';

export const HISTORY_SESSION = 'history';

export interface EngineSide {
  engine: Engine;
  workspace: string;
  dataDir: string;
  /** The turn each history turn was recorded as. */
  turnIds: string[];
}

export interface Replayed {
  git: ShadowGit;
  /** The shadow git's commit of each snapshot: the base first, then one per turn. */
  gitCommits: string[];
  turnback: EngineSide;
  turnbackNoFlush: EngineSide;
  rawDir: string;
  rawNoFlushDir: string;
  /** Milliseconds per turn, per contender. */
  samples: Record<'git' | 'raw' | 'turnback' | 'rawNoFlush' | 'turnbackNoFlush', number[]>;
}

async function timed(body: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

async function engineSide(openEngine: OpenEngine, base: string, name: string, pristine: string): Promise<EngineSide> {
  const workspace = path.join(base, `${name}-workspace`);
  const dataDir = path.join(base, `${name}-data`);
  await copyTree(pristine, workspace);
  return { engine: await openEngine({ workspace, dataDir, keepSessions: 0 }), workspace, dataDir, turnIds: [] };
}

async function turnOf(side: EngineSide, turn: HistoryTurn): Promise<number> {
  let turnId = '';
  const ms = await timed(async () => {
    turnId = await applyThroughEngine(side.engine, side.workspace, HISTORY_SESSION, turn);
  });
  side.turnIds.push(turnId);
  await side.engine.settled(); // untimed: the packing a turn end leaves must not land in the next figure
  return ms;
}

export async function replayHistory(
  ctx: BenchContext,
  openEngine: OpenEngine,
  history: History,
  base: string,
): Promise<Replayed> {
  const pristine = path.join(base, 'pristine');
  await checkoutTree(history.gitDir, history.base, pristine);
  const gitWorkspace = path.join(base, 'git-workspace');
  await copyTree(pristine, gitWorkspace);
  const git = await shadowGitContender(gitWorkspace, path.join(base, 'shadow.git'));
  await git.snapshot('the tree before the agent');
  const gitCommits = [await git.git('rev-parse', 'HEAD')];
  const rawDir = path.join(base, 'raw-workspace');
  const rawNoFlushDir = path.join(base, 'raw-noflush-workspace');
  await copyTree(pristine, rawDir);
  await copyTree(pristine, rawNoFlushDir);
  const turnback = await engineSide(openEngine, base, 'turnback', pristine);
  const turnbackNoFlush = await engineSide(openEngine, base, 'turnback-noflush', pristine);
  const samples: Replayed['samples'] = { git: [], raw: [], turnback: [], rawNoFlush: [], turnbackNoFlush: [] };

  for (const [i, turn] of history.turns.entries()) {
    await flushFilesystem(gitWorkspace);
    samples.git.push(
      await timed(async () => {
        await applyPlainly(gitWorkspace, turn);
        await git.snapshot(turn.title || turn.commit);
      }),
    );
    gitCommits.push(await git.git('rev-parse', 'HEAD'));
    await flushFilesystem(rawDir);
    samples.raw.push(await timed(() => applyDurably(rawDir, turn)));
    await flushFilesystem(turnback.workspace);
    samples.turnback.push(await turnOf(turnback, turn));
    // Without the flush, whoever fsyncs first pays for what the others left dirty: alternate.
    const rawFirst = i % 2 === 0;
    if (rawFirst) samples.rawNoFlush.push(await timed(() => applyDurably(rawNoFlushDir, turn)));
    samples.turnbackNoFlush.push(await turnOf(turnbackNoFlush, turn));
    if (!rawFirst) samples.rawNoFlush.push(await timed(() => applyDurably(rawNoFlushDir, turn)));
    if ((i + 1) % 50 === 0) ctx.log(`item 10: replayed ${i + 1} of ${history.turns.length} turns`);
  }
  return { git, gitCommits, turnback, turnbackNoFlush, rawDir, rawNoFlushDir, samples };
}
