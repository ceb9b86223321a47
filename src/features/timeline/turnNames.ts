// What a turn is called: the server titles an undo "Undo of #N" and the undo of an undo (a redo)
// "Redo of #N"; a turn recorded before it did ("Rollback of #N") is named so here.
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
  const title = turn.title.trim();
  if (turn.kind === 'rollback' && /^Rollback of #\d+$/.test(title)) {
    const undone = undoneRollback(turn, turnOf);
    return undone ? `Redo: takes back undo #${undone.number}` : title.replace('Rollback', 'Undo');
  }
  return title || (turn.kind === 'rollback' ? 'Undo' : '(no message)');
}
