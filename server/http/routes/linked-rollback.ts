// A turn's undo, preview and redo with its linked turns (Turn.linked: the same prompt's turns in
// other workspaces), each in its own workspace's engine: every side is evaluated first, so a
// conflict anywhere applies nothing; then this side, then the others (docs/api.md, linked turns).
import type { Engine } from '../../engine/api.js';
import { EngineError } from '../../engine/errors.js';
import type { LinkedTurn, OnConflict, Plan, RollbackResult } from '../../protocol.js';
import type { RouteDeps } from '../types.js';

interface Side {
  link: LinkedTurn;
  engine: Engine;
  release?: () => void;
}

/** The linked turns not undone already, each with its engine; refused (naming the project) when one cannot be reached. */
async function linkedSides(engine: Engine, turnId: string, deps: RouteDeps): Promise<Side[]> {
  const links = engine.getManifest(turnId).turn.linked ?? [];
  if (links.length === 0 || !deps.otherEngine) return [];
  const sides: Side[] = [];
  try {
    for (const link of links) {
      const side = await deps.otherEngine(link.workspaceId).catch((error: unknown) => {
        throw refusal(link, error);
      });
      sides.push({ link, ...side });
      let status: string;
      try {
        status = side.engine.getManifest(link.turnId).turn.status;
      } catch (error) {
        throw refusal(link, error);
      }
      // Undone alone already (onlyHere): nothing of it is left to take back.
      if (status === 'rolled-back') {
        side.release?.();
        sides.pop();
      }
    }
    return sides;
  } catch (error) {
    for (const side of sides) side.release?.();
    throw error;
  }
}

function refusal(link: LinkedTurn, error: unknown): EngineError {
  const code = error instanceof EngineError ? error.code : 'CONFLICT';
  const reason = error instanceof Error ? error.message : String(error);
  return new EngineError(
    code === 'ENGINE_CLOSED' || code === 'STORE_DAMAGED' || code === 'SCHEMA_TOO_NEW' ? 'CONFLICT' : code,
    `the linked turn in ${link.root} cannot be undone (${reason}): nothing was undone; onlyHere (--only-here) undoes this project alone`,
    { ...(error instanceof EngineError ? error.details : {}), workspaceId: link.workspaceId, root: link.root },
  );
}

/** The plan of the turn and of each linked turn (a whole-turn plan only; a selection stays in its workspace). */
export async function previewLinked(
  engine: Engine,
  turnId: string,
  opts: { onConflict?: OnConflict },
  deps: RouteDeps,
): Promise<Plan> {
  const plan = await engine.preview(turnId, opts);
  const sides = await linkedSides(engine, turnId, deps);
  try {
    if (sides.length === 0) return plan;
    const linked = [];
    for (const side of sides)
      linked.push({ ...side.link, plan: await side.engine.preview(side.link.turnId, opts).catch(rethrowFor(side)) });
    return { ...plan, linked };
  } finally {
    for (const side of sides) side.release?.();
  }
}

const rethrowFor =
  (side: Side) =>
  (error: unknown): never => {
    throw refusal(side.link, error);
  };

/**
 * The turn undone with its linked turns. A conflict (without force or keep-both) or any refusal
 * on one side applies nothing; a side that fails after this one was applied is named in its
 * `linked` entry's `error`, and `ok` is false. The rollback turns made are linked in turn, so
 * the redo (their undo) goes together too.
 */
export async function rollbackLinked(
  engine: Engine,
  turnId: string,
  opts: { force?: boolean; onConflict?: OnConflict },
  deps: RouteDeps,
): Promise<RollbackResult> {
  const sides = await linkedSides(engine, turnId, deps);
  if (sides.length === 0) return engine.rollback(turnId, opts);
  try {
    const refuses = !opts.force && opts.onConflict !== 'keep-both';
    const here = await engine.preview(turnId, opts);
    if (refuses && here.conflicts.length > 0) throw conflictIn(engine.workspace, here.conflicts);
    for (const side of sides) {
      const plan = await side.engine.preview(side.link.turnId, opts).catch(rethrowFor(side));
      if (refuses && plan.conflicts.length > 0) throw conflictIn(side.link.root, plan.conflicts, side.link);
    }
    const result = await engine.rollback(turnId, opts);
    const made: { root: string; engine: Engine; turnId: string }[] = [];
    if (result.rollbackTurnId) made.push({ root: engine.workspace, engine, turnId: result.rollbackTurnId });
    const linked: NonNullable<RollbackResult['linked']> = [];
    for (const side of sides) {
      try {
        const other = await side.engine.rollback(side.link.turnId, opts);
        linked.push({ ...side.link, result: other });
        if (other.rollbackTurnId)
          made.push({ root: side.link.root, engine: side.engine, turnId: other.rollbackTurnId });
        if (!other.ok) result.ok = false;
      } catch (error) {
        const code = error instanceof EngineError ? error.code : 'INTERNAL';
        linked.push({ ...side.link, error: { code, message: error instanceof Error ? error.message : String(error) } });
        result.ok = false;
      }
    }
    for (const a of made)
      for (const b of made) if (a !== b) a.engine.linkTurn(a.turnId, { root: b.root, turnId: b.turnId });
    return { ...result, linked };
  } finally {
    for (const side of sides) side.release?.();
  }
}

function conflictIn(root: string, conflicts: string[], link?: LinkedTurn): EngineError {
  return new EngineError(
    'CONFLICT',
    `${conflicts.length} path(s) in ${root} changed since the turn: nothing was undone in either project; pass force to overwrite, or onlyHere (--only-here) to undo one project alone`,
    { conflicts, root, ...(link ? { workspaceId: link.workspaceId } : {}) },
  );
}
