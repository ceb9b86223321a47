// Named points: the person marks the workspace's current state ("known good"), recorded as a
// turn of kind `pin` with no changes and the name as its title, in a session of the workspace's
// pins. Rewinding that session to a pin takes every path changed by any turn since (any session)
// back to its state at the pin, as one undoable rollback turn. While pinned, retention keeps the
// pin and every session active since it (their turns hold what reaching the pin needs).
import type { Pin } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import { BadRequestError, TurnActiveError, TurnNotFoundError } from '../errors.js';
import type { TurnRow } from '../db/store.js';
import { beginTurn, endTurnOrWithoutAfterContents } from './turns.js';

/** The session a workspace's pins are turns of. */
export const PINS_SESSION = 'turnback-pins';
const NAME_LIMIT = 120;

export async function pinHere(ctx: EngineContext, name: string | undefined): Promise<Pin> {
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw new BadRequestError('a pin name must be a non-empty string');
  // A turn being recorded leaves no settled state to mark.
  const active = ctx.store.activeTurns().find((t) => t.kind === 'agent');
  if (active) throw new TurnActiveError(active.session_id);
  const title = [...(name?.trim() ?? `Pinned ${new Date(ctx.now()).toISOString().slice(0, 16).replace('T', ' ')}`)]
    .slice(0, NAME_LIMIT)
    .join('');
  ctx.store.relaxed(() => ctx.store.upsertSession(PINS_SESSION, 'turnback', 'pins', ctx.now(), 'person'));
  const turn = beginTurn(ctx, PINS_SESSION, 'pin', title);
  await endTurnOrWithoutAfterContents(ctx, turn.turnId, PINS_SESSION, false, () =>
    ctx.store.setPinned(turn.turnId, true),
  );
  return pinOf(ctx.store.getTurn(turn.turnId)!);
}

export function listPins(ctx: EngineContext): Pin[] {
  return ctx.store.pinnedTurns().map(pinOf);
}

/** Gives the pin back to retention (its turn stays, and can still be rewound to while its session lasts). */
export function unpin(ctx: EngineContext, turnId: string): void {
  const row = ctx.store.getTurn(turnId);
  if (!row) throw new TurnNotFoundError(turnId);
  if (row.kind !== 'pin') throw new BadRequestError('that turn is not a pin', { turnId });
  ctx.store.relaxed(() => ctx.store.setPinned(turnId, false));
}

/** The turns a rewind to the pin covers: every turn begun after it, any session; refused while one is being recorded. */
export function turnsSincePin(ctx: EngineContext, pin: TurnRow): TurnRow[] {
  const active = ctx.store.activeTurnsSince(pin.started_at)[0];
  if (active) throw new TurnActiveError(active.session_id);
  const all = ctx.store.endedTurnsInOrder();
  return all.slice(all.findIndex((t) => t.turn_id === pin.turn_id) + 1);
}

/** The time from which retention keeps every session: the oldest pin's, or null without pins. */
export function pinnedSince(ctx: EngineContext): number | null {
  return ctx.store.pinnedTurns()[0]?.started_at ?? null;
}

function pinOf(row: TurnRow): Pin {
  return {
    turnId: row.turn_id,
    sessionId: row.session_id,
    number: row.number,
    name: row.title,
    at: new Date(row.started_at).toISOString(),
  };
}
