// Named points: the person marks the workspace's current state ("known good"), recorded as a
// turn of kind `pin` with no changes and the name as its title, in a session of the workspace's
// pins. Rewinding that session to a pin takes every path changed by any turn since (any session)
// back to its state at the pin, as one undoable rollback turn. While pinned, retention keeps the
// pin and every session active since it (their turns hold what reaching the pin needs).
import type { Pin } from '../../protocol.js';
import { BadRequestError, TurnActiveError, TurnNotFoundError } from '../errors.js';
import type { StoredTurn } from '../db/turns.js';
import type { StoreTransactions } from '../context.js';
import type { Turns } from '../db/turns.js';
import { beginTurn, endTurnOrWithoutAfterContents, type TurnLifecycleDeps } from './turns.js';

/** What reading pins touches: the turns' table. */
export interface PinReadDeps {
  store: { turns: Turns };
}

/** The session a workspace's pins are turns of. */
export const PINS_SESSION = 'turnback-pins';
const NAME_LIMIT = 120;

export async function pinHere(ctx: TurnLifecycleDeps, name: string | undefined): Promise<Pin> {
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw new BadRequestError('a pin name must be a non-empty string');
  // A turn being recorded leaves no settled state to mark.
  const active = ctx.store.turns.active().find((t) => t.kind === 'agent');
  if (active) throw new TurnActiveError(active.sessionId);
  const title = [...(name?.trim() ?? `Pinned ${new Date(ctx.now()).toISOString().slice(0, 16).replace('T', ' ')}`)]
    .slice(0, NAME_LIMIT)
    .join('');
  ctx.store.relaxed(() => ctx.store.sessions.upsert(PINS_SESSION, 'turnback', 'pins', ctx.now(), 'person'));
  const turn = beginTurn(ctx, PINS_SESSION, 'pin', title);
  await endTurnOrWithoutAfterContents(ctx, turn.turnId, PINS_SESSION, false, () =>
    ctx.store.turns.setPinned(turn.turnId, true),
  );
  return pinOf(ctx.store.turns.get(turn.turnId)!);
}

export function listPins(ctx: PinReadDeps): Pin[] {
  return ctx.store.turns.pinned().map(pinOf);
}

/** Gives the pin back to retention (its turn stays, and can still be rewound to while its session lasts). */
export function unpin(ctx: { store: StoreTransactions & { turns: Turns } }, turnId: string): void {
  const row = ctx.store.turns.get(turnId);
  if (!row) throw new TurnNotFoundError(turnId);
  if (row.kind !== 'pin') throw new BadRequestError('that turn is not a pin', { turnId });
  ctx.store.relaxed(() => ctx.store.turns.setPinned(turnId, false));
}

/** The turns a rewind to the pin covers: every turn begun after it, any session; refused while one is being recorded. */
export function turnsSincePin(ctx: PinReadDeps, pin: StoredTurn): StoredTurn[] {
  const active = ctx.store.turns.activeSince(pin.startedAt)[0];
  if (active) throw new TurnActiveError(active.sessionId);
  const all = ctx.store.turns.endedInOrder();
  return all.slice(all.findIndex((t) => t.turnId === pin.turnId) + 1);
}

/** The time from which retention keeps every session: the oldest pin's, or null without pins. */
export function pinnedSince(ctx: PinReadDeps): number | null {
  return ctx.store.turns.pinned()[0]?.startedAt ?? null;
}

function pinOf(row: StoredTurn): Pin {
  return {
    turnId: row.turnId,
    sessionId: row.sessionId,
    number: row.number,
    name: row.title,
    at: new Date(row.startedAt).toISOString(),
  };
}
