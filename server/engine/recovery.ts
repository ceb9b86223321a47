// Recovery on open: turns a crash left active are committed from what is on disk and marked
// `interrupted`; an interrupted rollback is reported (running it again completes it); temp
// files the crash left behind are removed.
import path from 'node:path';
import type { RecoveryReport } from './api.js';
import type { EngineContext } from './context.js';
import { TEMP_PREFIX, isNotFound } from './fs.js';
import { sweepBlobs } from './gc.js';
import { restorePendingContents } from './flusher.js';
import { finishTurn } from './turns.js';

export type { RecoveryReport };

/** Blob files a crash left without their entry row (written, never referenced). */
async function removeOrphanBlobs(ctx: EngineContext): Promise<void> {
  for (const fan of await ctx.fs.readdir(ctx.blobs.dir)) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const rest of await ctx.fs.readdir(path.join(ctx.blobs.dir, fan))) {
      const hash = fan + rest;
      if (/^[0-9a-f]{64}$/.test(hash) && !ctx.store.hasBlobRow(hash) && !ctx.pins.has(hash)) await ctx.blobs.remove(hash);
    }
  }
}

async function removeTempFilesIn(ctx: EngineContext, dir: string): Promise<number> {
  let names: string[];
  try { names = await ctx.fs.readdir(dir); } catch (e) { if (isNotFound(e)) return 0; throw e; }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    try { await ctx.fs.unlink(path.join(dir, name)); removed++; } catch (e) { if (!isNotFound(e)) throw e; }
  }
  return removed;
}

/**
 * After a crash: blob files the dead process wrote without an fsync are trusted from now on
 * (a capture that finds one commits no bytes), so they are flushed first. One syncfs; best effort.
 */
async function flushWhatTheCrashLeft(ctx: EngineContext): Promise<void> {
  try { await ctx.fs.syncFilesystem(ctx.blobs.dir); } catch { /* no syncfs here: as before */ }
}

export async function recover(ctx: EngineContext, options: { afterCrash?: boolean } = {}): Promise<RecoveryReport> {
  const report: RecoveryReport = { interruptedTurns: [], interruptedRollbacks: [], removedTempFiles: 0 };
  if (options.afterCrash) await flushWhatTheCrashLeft(ctx);
  // First: blobs a crash left unwritten are what rollback and recovery's commit read.
  await restorePendingContents(ctx);
  const dirs = new Set<string>([ctx.blobs.dir]);
  for (const turn of ctx.store.activeTurns()) {
    for (const e of ctx.store.entriesOf(turn.turn_id)) {
      for (const uri of [e.uri, e.to_uri]) {
        const located = uri ? ctx.roots.absOf(uri) : null;
        if (located) dirs.add(path.dirname(located.abs));
      }
    }
  }
  for (const dir of dirs) report.removedTempFiles += await removeTempFilesIn(ctx, dir);
  for (const temp of ctx.store.pendingTemps()) {
    if (path.basename(temp).startsWith(TEMP_PREFIX)) {
      try { await ctx.fs.unlink(temp); report.removedTempFiles++; } catch (e) { if (!isNotFound(e)) throw e; }
    }
    ctx.store.removePendingTemp(temp);
  }
  for (const turn of ctx.store.activeTurns()) {
    await finishTurn(ctx, turn.turn_id, turn.session_id, true);
    report.interruptedTurns.push(turn.turn_id);
    if (turn.kind === 'rollback') {
      report.interruptedRollbacks.push({ rollbackTurnId: turn.turn_id, rollbackOf: turn.rollback_of ? JSON.parse(turn.rollback_of) as string[] : [] });
    }
  }
  if (report.interruptedTurns.length > 0) await removeOrphanBlobs(ctx);
  await sweepBlobs(ctx);
  return report;
}
