// Search across a session's turns (the console's filter): by prompt text or by a path the turn
// changed, answered by SQLite so it stays fast at 10,000 turns.
import type { Turn } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import { SessionNotFoundError } from '../errors.js';
import { toTurn } from './turns.js';

export function searchTurns(
  ctx: EngineContext,
  sessionId: string,
  text: string,
  opts: { limit?: number; before?: number } = {},
): Turn[] {
  if (!ctx.store.sessions.get(sessionId)) throw new SessionNotFoundError(sessionId);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
  const before = opts.before && opts.before > 0 ? opts.before : Number.MAX_SAFE_INTEGER;
  return ctx.store.turns.search({ sessionId, text, limit, before }).map((row) => toTurn(ctx, row));
}
