// Two points side by side: each path's state at the end of one turn against the end of another,
// any sessions of the workspace. The turns between them (in the order they began) hold every
// change: a path's state at the end of the earlier turn is its before-state in the first turn
// after it that changed the path, and at the end of the later turn its after-state in the last
// one. Changes the person made outside any turn are not in the store, so they are not compared.
import { imageTypeOf, type Comparison, type Diff, type State } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import { BadRequestError, FileNotFoundError, TurnNotFoundError } from '../errors.js';
import { sameState } from '../record/path-state.js';
import { sideOf } from './diff.js';
import { changeKind } from './summary.js';
import { toChange } from './turns.js';

export function compareTurns(ctx: EngineContext, fromTurnId: string, toTurnId: string): Comparison {
  const turns = ctx.store.endedTurnsInOrder();
  const at = (turnId: string): number => {
    const i = turns.findIndex((t) => t.turn_id === turnId);
    if (i === -1) {
      if (ctx.store.getTurn(turnId)) throw new BadRequestError('an active turn has no end to compare yet', { turnId });
      throw new TurnNotFoundError(turnId);
    }
    return i;
  };
  const [a, b] = [at(fromTurnId), at(toTurnId)];
  const forward = a <= b;
  const between = turns.slice(Math.min(a, b) + 1, Math.max(a, b) + 1);
  /** Per path: its state at the earlier end (first before) and at the later end (last after). */
  const states = new Map<string, { earlier: State; later: State }>();
  for (const turn of between) {
    for (const change of ctx.store.changesOf(turn.turn_id).map(toChange)) {
      if (!ctx.roots.isTrackedUri(change.uri)) continue;
      const known = states.get(change.uri);
      if (known) known.later = change.after;
      else states.set(change.uri, { earlier: change.before, later: change.after });
    }
  }
  const files: Comparison['files'] = [];
  for (const [uri, { earlier, later }] of [...states].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const [before, after] = forward ? [earlier, later] : [later, earlier];
    if (sameState(before, after)) continue;
    files.push({ uri, change: changeKind(before, after), before, after });
  }
  return { from: fromTurnId, to: toTurnId, files };
}

/** The side-by-side diff of one path of a comparison. */
export async function compareDiff(
  ctx: EngineContext,
  fromTurnId: string,
  toTurnId: string,
  uri: string,
): Promise<Diff> {
  const file = compareTurns(ctx, fromTurnId, toTurnId).files.find((f) => f.uri === uri);
  if (!file) throw new FileNotFoundError(uri);
  const image = imageTypeOf(uri);
  return { uri, before: await sideOf(ctx, file.before, image), after: await sideOf(ctx, file.after, image) };
}
