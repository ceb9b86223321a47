// Two points side by side: each path's state at the end of one turn against the end of another,
// any sessions of the workspace. The turns between them (in the order they began) hold every
// change: a path's state at the end of the earlier turn is its before-state in the first turn
// after it that changed the path, and at the end of the later turn its after-state in the last
// one. Changes the person made outside any turn are not in the store, so they are not compared.
import { imageTypeOf, type Comparison, type Diff } from '../../protocol.js';
import type { Turns } from '../db/turns.js';
import { BadRequestError, FileNotFoundError, TurnNotFoundError } from '../errors.js';
import { sameState } from '../state/state.js';
import { sideOf, type SideDeps } from './diff.js';
import { changeKind } from './summary.js';
import { coverageOf, type CoverageDeps } from '../rollback/plan.js';

/** What a comparison reads: the ended turns in order, and their paths. */
export interface CompareDeps extends CoverageDeps {
  store: CoverageDeps['store'] & { turns: Turns };
}

export function compareTurns(ctx: CompareDeps, fromTurnId: string, toTurnId: string): Comparison {
  const turns = ctx.store.turns.endedInOrder();
  const at = (turnId: string): number => {
    const i = turns.findIndex((t) => t.turnId === turnId);
    if (i === -1) {
      if (ctx.store.turns.get(turnId))
        throw new BadRequestError('an active turn has no end to compare yet', { turnId });
      throw new TurnNotFoundError(turnId);
    }
    return i;
  };
  const [a, b] = [at(fromTurnId), at(toTurnId)];
  const forward = a <= b;
  const between = turns.slice(Math.min(a, b) + 1, Math.max(a, b) + 1);
  // The turns between, merged as a rollback covers them: each path's earliest before-state and latest after-state.
  const paths = coverageOf(ctx, between).paths.sort((x, y) => (x.uri < y.uri ? -1 : x.uri > y.uri ? 1 : 0));
  const files: Comparison['files'] = [];
  for (const { uri, target: earlier, expected: later } of paths) {
    const [before, after] = forward ? [earlier, later] : [later, earlier];
    if (sameState(before, after)) continue;
    files.push({ uri, change: changeKind(before, after), before, after });
  }
  return { from: fromTurnId, to: toTurnId, files };
}

/** The side-by-side diff of one path of a comparison. */
export async function compareDiff(
  ctx: CompareDeps & SideDeps,
  fromTurnId: string,
  toTurnId: string,
  uri: string,
): Promise<Diff> {
  const file = compareTurns(ctx, fromTurnId, toTurnId).files.find((f) => f.uri === uri);
  if (!file) throw new FileNotFoundError(uri);
  const image = imageTypeOf(uri);
  return { uri, before: await sideOf(ctx, file.before, image), after: await sideOf(ctx, file.after, image) };
}
