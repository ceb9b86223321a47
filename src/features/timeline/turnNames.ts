// What a turn is called: a rollback of a rollback is an undo, and says so wherever the turn's
// title shows (the server titles every rollback turn "Rollback of #N"; its badge still names
// the turn it rolled back).
import type { Turn } from '../../../server/protocol';

/** Finds another turn of the session by id; undefined while it is not loaded. */
export type TurnOf = (turnId: string) => Pick<Turn, 'number' | 'kind'> | undefined;

/** The turn a single rollback rolled back, when it was itself a rollback: then this turn undoes it. */
export function undoneRollback(turn: Turn, turnOf: TurnOf): Pick<Turn, 'number' | 'kind'> | undefined {
  if (turn.kind !== 'rollback' || turn.rollbackOf?.length !== 1) return undefined;
  const target = turnOf(turn.rollbackOf[0]);
  return target?.kind === 'rollback' ? target : undefined;
}

/** The title the console shows for a turn. */
export function turnTitle(turn: Turn, turnOf: TurnOf): string {
  const undone = undoneRollback(turn, turnOf);
  if (undone) return `Undo of #${undone.number}`;
  return turn.title.trim() || (turn.kind === 'rollback' ? 'Rollback' : '(no message)');
}
