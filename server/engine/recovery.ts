// Recovery on open: turns a crash left active are committed from what is on disk and marked
// `interrupted`; an interrupted rollback is reported (running it again completes it); temp
// files the crash left behind are removed.
import path from 'node:path';
import type { RecoveryReport } from './api.js';
import type { EngineContext } from './context.js';
import { TEMP_PREFIX, isNotFound } from './fs.js';
import { sweepBlobs } from './gc.js';
import { decodeBatches } from './journal.js';
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
 * Brings back what the capture journal holds: blobs whose file a crash lost or tore, entry rows
 * (and the turn rows a power cut lost with them). A batch of a turn that is no longer active is
 * stale: that turn was flushed whole when it committed.
 */
async function replayJournal(ctx: EngineContext): Promise<void> {
  let data: Buffer;
  try { data = await ctx.fs.readFile(ctx.journal.file); } catch (e) { if (isNotFound(e)) data = Buffer.alloc(0); else throw e; }
  for (const batch of decodeBatches(data)) {
    const turn = ctx.store.getTurn(batch.turnId);
    if (turn ? turn.status !== 'active' : !batch.rows?.turn) continue;
    for (const blob of batch.blobs) if (blob.data) await ctx.blobs.restore(blob.hash, blob.data);
    ctx.store.replayBatch(batch);
  }
  ctx.store.flush();
  await ctx.journal.open();
  if (data.length > 0) await ctx.journal.clear();
}

export async function recover(ctx: EngineContext): Promise<RecoveryReport> {
  const report: RecoveryReport = { interruptedTurns: [], interruptedRollbacks: [], removedTempFiles: 0 };
  await replayJournal(ctx);
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
