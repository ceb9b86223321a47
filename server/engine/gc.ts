// Garbage collection: sessions beyond `keepSessions` (least recently active first, never one
// with a turn being recorded), session deletion, and the sweep of contents nothing needs.
import type { EngineContext } from './context.js';

/** Drops a session's turns, messages and entries; its turn counter stays. */
export function dropSession(ctx: EngineContext, sessionId: string): void {
  const turnIds = ctx.store.transaction(() => ctx.store.deleteSessionRows(sessionId));
  for (const id of turnIds) ctx.turns.delete(id);
  ctx.events.emit('session-deleted', { sessionId });
}

/**
 * Removes contents no turn references and the workspace index does not name. One transaction:
 * a content being captured is stored by the transaction that references it, so none can be
 * caught in between.
 */
export function sweepContents(ctx: EngineContext): number {
  const held = ctx.execs.heldHashes();
  const unused = ctx.contents.unreferenced().filter((hash) => !held.has(hash));
  if (unused.length > 0) ctx.store.transaction(() => { for (const hash of unused) ctx.contents.remove(hash); });
  return unused.length;
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
  if (dropped > 0) sweepContents(ctx);
}
