// An undo asked for from the agent's own chat is driven inside the asking turn: its writes are
// recorded into that turn as one step (the asking tool call's), so undoing that step or that turn
// takes the undo back. A rollback turn's commit takes placed files as placed; the asking turn goes
// on, so its commit reads them from disk like the rest of its files.
import type { StepRef } from '../../protocol.js';
import type { TurnContext } from '../context.js';
import type { Mutations } from '../record/storage.js';
import { Applier, type ApplyDeps } from './apply.js';
import type { EvaluatedPath } from './plan.js';

export interface InTurnApplied {
  outcome: Applier['outcome'];
  changedAnything: boolean;
  failedUris: ReadonlySet<string>;
  failure: unknown;
}

export async function applyAsStep(
  ctx: ApplyDeps,
  mutations: Mutations,
  turn: TurnContext,
  job: { step?: StepRef; number: number; title: string },
  paths: EvaluatedPath[],
): Promise<InTurnApplied> {
  const step = turn.step;
  const placedBefore = new Set(turn.placed.keys());
  turn.step = { id: job.step?.id ?? `turnback-undo-of-${job.number}`, title: job.step?.title ?? job.title };
  const applier = new Applier(ctx, mutations, turn);
  let failure: unknown = null;
  try {
    await applier.apply(paths);
  } catch (e) {
    failure = e;
  } finally {
    turn.step = step;
    for (const uri of [...turn.placed.keys()]) if (!placedBefore.has(uri)) turn.placed.delete(uri);
  }
  return {
    outcome: applier.outcome,
    changedAnything: applier.changedAnything,
    failedUris: applier.failedUris,
    failure,
  };
}
