// Garbage collection: sessions beyond `keepSessions` (least recently active first, never one
// with a turn being recorded), session deletion, and the sweep of blobs no turn references.
import type { EngineContext } from './context.js';

/** Drops a session's turns, messages and entries; its turn counter stays. */
export function dropSession(ctx: EngineContext, sessionId: string): void {
  const turnIds = ctx.store.transaction(() => ctx.store.deleteSessionRows(sessionId));
  for (const id of turnIds) ctx.turns.delete(id);
  ctx.events.emit('session-deleted', { sessionId });
}

/** Removes blobs no turn references. Never runs during a blob write; pinned hashes stay. */
export async function sweepBlobs(ctx: EngineContext): Promise<number> {
  return ctx.blobs.exclusive(async () => {
    const unused = ctx.store.unreferencedBlobs().filter((hash) => !ctx.pins.has(hash));
    ctx.store.transaction(() => { for (const hash of unused) ctx.store.deleteBlobRow(hash); });
    for (const hash of unused) await ctx.blobs.remove(hash);
    return unused.length;
  });
}

/** Keeps the `keepSessions` most recently active sessions (0 keeps all). */
export async function pruneSessions(ctx: EngineContext): Promise<void> {
  const keep = ctx.limits.keepSessions;
  if (keep <= 0 || ctx.store.countSessions() <= keep) return;
  const sessions = ctx.store.listSessions();
  if (sessions.length <= keep) return;
  const busy = new Set([...ctx.turns.values()].map((t) => t.sessionId));
  let excess = sessions.length - keep;
  let dropped = 0;
  for (const s of [...sessions].reverse()) {
    if (excess <= 0) break;
    if (s.active_turn_id || busy.has(s.session_id)) continue;
    dropSession(ctx, s.session_id);
    excess--;
    dropped++;
  }
  if (dropped > 0) await sweepBlobs(ctx);
}
