// Search across a session's turns (the console's filter): by prompt text or by a path the turn
// changed, answered by SQLite so it stays fast at 10,000 turns.
import type { Turn } from '../../protocol.js';
import type { Sessions } from '../db/sessions.js';
import type { Turns } from '../db/turns.js';
import { SessionNotFoundError } from '../errors.js';
import { toTurn, type TurnViewDeps } from './turns.js';

/** What a search touches: the sessions' and turns' tables, and what a turn's view reads. */
export interface SearchDeps extends TurnViewDeps {
  store: TurnViewDeps['store'] & { sessions: Sessions; turns: Turns };
}

export function searchTurns(
  ctx: SearchDeps,
  sessionId: string,
  text: string,
  opts: { limit?: number; before?: number } = {},
): Turn[] {
  if (!ctx.store.sessions.get(sessionId)) throw new SessionNotFoundError(sessionId);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
  const before = opts.before && opts.before > 0 ? opts.before : Number.MAX_SAFE_INTEGER;
  return ctx.store.turns.search({ sessionId, text, limit, before }).map((row) => toTurn(ctx, row));
}
