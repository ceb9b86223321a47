// Recovery on open: turns a crash left active are committed from what is on disk and marked
// `interrupted`; an interrupted rollback is reported (running it again completes it), the files
// it was writing over in place finished first; temp files and staged contents the crash left
// behind are removed.
import path from 'node:path';
import type { RecoveryReport } from '../api.js';
import type { TurnContext } from '../context.js';
import { LinkOnPathError } from '../errors.js';
import { TEMP_PREFIX, isNotFound } from '../paths/fs.js';
import { type GcDeps, pruneSessions, sweepContents } from './gc.js';
import { endTurn, type TurnLifecycleDeps } from './turns.js';

/** What recovery touches: turns left active (ended), temp files left behind, then retention. */
export type RecoveryDeps = TurnLifecycleDeps & GcDeps;

export type { RecoveryReport };

/** Gone, or out of reach: the seam walks beneath the root, so a symlink planted on the way is left alone, never followed. */
function isOutOfReach(e: unknown): boolean {
  return isNotFound(e) || e instanceof LinkOnPathError;
}

async function removeTempFilesIn(ctx: RecoveryDeps, dir: string): Promise<number> {
  let names: string[];
  try {
    names = await ctx.fs.readdir(dir);
  } catch (e) {
    if (isOutOfReach(e)) return 0;
    throw e;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    try {
      await ctx.fs.unlink(path.join(dir, name));
      removed++;
    } catch (e) {
      if (!isOutOfReach(e)) throw e;
    }
  }
  return removed;
}

/** What recovery asks of the shell-command scans: a resumed turn's commands the crash left open, finished. */
export interface OpenCommandRecovery {
  recoverTurn(turn: TurnContext): Promise<unknown>;
}

/** What recovery asks of rollback: the files a rollback turn was writing over in place, finished (rollback/overwrite-repair.ts). */
export type FinishOverwrites = (turnId: string) => Promise<number>;

export async function recover(
  ctx: RecoveryDeps,
  execs: OpenCommandRecovery,
  finishOverwrites: FinishOverwrites,
): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    interruptedTurns: [],
    interruptedRollbacks: [],
    removedTempFiles: 0,
    finishedFiles: 0,
  };
  // Contents a crash cut short while they were staged were never stored under a name.
  ctx.contents.removeAbandoned();
  const dirs = new Set<string>();
  for (const turn of ctx.store.turns.active()) {
    for (const e of ctx.store.entries.of(turn.turnId)) {
      for (const uri of [e.uri, e.toUri]) {
        const located = uri ? ctx.roots.absOf(uri) : null;
        if (located) dirs.add(path.dirname(located.abs));
      }
    }
  }
  for (const dir of dirs) report.removedTempFiles += await removeTempFilesIn(ctx, dir);
  for (const temp of ctx.store.pendingTemps()) {
    if (path.basename(temp).startsWith(TEMP_PREFIX)) {
      try {
        await ctx.fs.unlink(temp);
        report.removedTempFiles++;
      } catch (e) {
        // Behind a symlink planted on the way: kept on the list, for an open that finds the folder real again.
        if (e instanceof LinkOnPathError) continue;
        if (!isNotFound(e)) throw e;
      }
    }
    ctx.store.removePendingTemp(temp);
  }
  for (const turn of ctx.store.turns.active()) {
    // Commands the crash left open: what they changed since their before scan, against the index it persisted.
    if (turn.kind === 'agent') await execs.recoverTurn(ctx.turns.resume(turn));
    // A file cut short in the middle of its write is whole again before the commit reads it
    // (a rollback turn's, or an agent turn's undo from its chat).
    report.finishedFiles += await finishOverwrites(turn.turnId);
    await endTurn(ctx, turn.turnId, turn.sessionId, true);
    report.interruptedTurns.push(turn.turnId);
    if (turn.kind === 'rollback') {
      report.interruptedRollbacks.push({
        rollbackTurnId: turn.turnId,
        rollbackOf: turn.rollbackOf ?? [],
      });
    }
  }
  // The commits recovery made are commits like any other: retention follows them (an open
  // with nothing to recover prunes nothing: old sessions stay until the next commit).
  if (report.interruptedTurns.length === 0 || pruneSessions(ctx) === 0) sweepContents(ctx);
  return report;
}
