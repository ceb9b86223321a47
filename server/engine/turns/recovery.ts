// Recovery on open: an agent turn a crash left active goes on (its session's next event, often
// the very hook that restarted the service, is recorded in it), with what changed while no
// service ran taken in; one its session leaves quiet is committed `interrupted` after a while.
// An interrupted rollback is committed and reported (running it again completes it), the files
// it was writing over in place finished first; temp files and staged contents the crash left
// behind are removed.
import path from 'node:path';
import type { RecoveryReport } from '../api.js';
import type { TurnContext } from '../context.js';
import { LinkOnPathError } from '../errors.js';
import { TEMP_PREFIX, isNotFound } from '../paths/fs.js';
import type { KeyedQueue } from '../queue.js';
import { type GcDeps, pruneSessions, sweepContents } from './gc.js';
import { endTurn, type TurnLifecycleDeps } from './turns.js';

/** What recovery touches: turns left active (resumed or ended), temp files left behind, then retention. */
export type RecoveryDeps = TurnLifecycleDeps & GcDeps & { queue: KeyedQueue };

/** A resumed agent turn that records nothing for this long is committed `interrupted`: its agent is gone too. */
export const RESUMED_TURN_WAIT_MS = 10 * 60_000;

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

/** What recovery asks of the shell-command scans: a resumed turn's commands the crash left open, finished, and what changed meanwhile taken in; a turn's commands closed before its commit. */
export interface OpenCommandRecovery {
  recoverTurn(turn: TurnContext): Promise<unknown>;
  closeTurn(turn: TurnContext): Promise<unknown>;
}

/** What recovery asks of rollback: the files a rollback turn was writing over in place, finished (rollback/overwrite-repair.ts). */
export type FinishOverwrites = (turnId: string) => Promise<number>;

export async function recover(
  ctx: RecoveryDeps,
  execs: OpenCommandRecovery,
  finishOverwrites: FinishOverwrites,
  resumedWaitMs = RESUMED_TURN_WAIT_MS,
): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    resumedTurns: [],
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
    // A file cut short in the middle of its write is whole again before anything reads it
    // (a rollback turn's, or an agent turn's undo from its chat).
    report.finishedFiles += await finishOverwrites(turn.turnId);
    if (turn.kind === 'agent') {
      // Commands the crash left open: open again, against the index their before scan persisted;
      // what changed after the last one ended is the turn's too (tool `gap`).
      const resumed = ctx.turns.resume(turn);
      resumed.cutByCrash = true;
      await execs.recoverTurn(resumed);
      report.resumedTurns.push(turn.turnId);
      commitWhenQuiet(ctx, execs, resumed, resumedWaitMs);
      continue;
    }
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

/**
 * A resumed turn whose session records nothing for `ms` (no entry, no command) is committed
 * `interrupted`, as the engine's close would: the person may undo it without waiting for an
 * agent that is gone.
 */
function commitWhenQuiet(ctx: RecoveryDeps, execs: OpenCommandRecovery, turn: TurnContext, ms: number): void {
  const progress = () => `${ctx.store.entries.maxSeq(turn.turnId)}\0${ctx.store.commands.last(turn.turnId)?.execId}`;
  let seen = progress();
  const check = async () => {
    const row = ctx.store.turns.get(turn.turnId);
    if (!row || row.status !== 'active') return;
    const now = progress();
    if (now !== seen) {
      seen = now;
      arm();
      return;
    }
    await execs.closeTurn(turn);
    await endTurn(ctx, turn.turnId, turn.sessionId, true);
  };
  const arm = () => {
    // A closed engine's store throws: the close committed the turn already.
    const timer = setTimeout(() => void ctx.queue.run(turn.sessionId, check).catch(() => undefined), ms);
    timer.unref();
  };
  arm();
}
