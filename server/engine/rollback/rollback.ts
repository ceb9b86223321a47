// Rollback, rollback with chat and rewind. Each plans the paths, refuses on drift unless
// `force`, drives the paths back through the controlled storage inside a new turn of kind
// `rollback`, then updates statuses and messages so that turn can itself be undone.
import type { OnConflict, Plan, RollbackResult, State, Step, StepRef, TurnStatus } from '../../protocol.js';
import { Applier, type ApplyDeps } from './apply.js';
import { finishOverwrites } from './overwrite-repair.js';
import type { EngineLimits } from '../context.js';
import type { Commands } from '../db/commands.js';
import type { KeyedQueue } from '../queue.js';
import { BadRequestError, ConflictError, SessionNotFoundError, TurnActiveError, TurnNotFoundError } from '../errors.js';
import { deleteMessages, restoreMessages, toMessage } from '../turns/memory.js';
import { conflictAuthors } from './conflict-authors.js';
import { keepBoth, type KeptBoth } from './keep-both.js';
import {
  countModesGiven,
  givenBackIsNoDrift,
  nameUnlisted,
  restoreModesFirst,
  takeModesBack,
  unlistedFolders,
} from './unreadable.js';
import { type StepGroup, stepCoverage } from './steps.js';
import { turnsSincePin } from '../turns/pins.js';
import {
  type ContentCheck,
  type Coverage,
  type EvaluatedPath,
  coverageOf,
  evaluate,
  planActions,
  planFolders,
  type PathTarget,
  selectPaths,
} from './plan.js';
import type { Mutations } from '../record/storage.js';
import type { Messages, StoredMessage } from '../db/messages.js';
import type { StoredTurn, UndoRecord } from '../db/turns.js';
import {
  beginTurn,
  endTurnOrWithoutAfterContents,
  endTurnWithoutAfterContents,
  type TurnLifecycleDeps,
} from '../turns/turns.js';
import { sameForDrift } from '../state/state.js';
import type { TurnContext } from '../context.js';
import { applyAsStep } from './in-turn.js';
import { checkStep } from '../record/step-ref.js';

/**
 * What a rollback touches: everything its own turn's lifecycle and its writes do (it is a
 * recorded turn, driven through the storage), the messages it deletes and brings back, the
 * commands it names folders from, and the session queues.
 */
export interface RollbackDeps extends TurnLifecycleDeps, ApplyDeps {
  limits: EngineLimits;
  store: TurnLifecycleDeps['store'] &
    ApplyDeps['store'] & { messages: Messages; commands: Commands; dropTurn(turnId: string): void };
  queue: KeyedQueue;
}

/**
 * Rollback turns an earlier attempt could not commit at all: committed before anything else
 * runs, the files they were writing over in place finished first.
 */
async function endStrandedRollbackTurns(ctx: RollbackDeps, sessionId: string): Promise<void> {
  for (const row of ctx.store.turns.active()) {
    if (row.sessionId !== sessionId || row.kind !== 'rollback') continue;
    await finishOverwrites(ctx, row.turnId);
    await endTurnWithoutAfterContents(ctx, row.turnId, sessionId);
  }
}

/** What a rollback turn changed besides files, so undoing it can put everything back. */
export type { UndoRecord };

interface Job {
  sessionId: string;
  turnId: string;
  coverage: Coverage;
  selection?: string[];
  withChat: boolean;
  force: boolean;
  onConflict: OnConflict;
  /** The number of the turn rolled back (or rewound to): it names the copies of `keep-both`. */
  number: number;
  rewind: boolean;
  /** A rollback of chosen steps of the turn: the later step behind each path changed again since. */
  laterSteps?: Map<string, Step>;
  title: string;
  /** The asking agent turn of the same session, still active: the rollback is recorded in it as a step (in-turn.ts). */
  inTurn?: string;
  step?: StepRef;
}

export interface JobOptions {
  withChat?: boolean;
  force?: boolean;
  onConflict?: OnConflict;
  /** An undo asked for from the agent's own chat: its active turn, and the step (tool call) asking. */
  inTurn?: string;
  step?: StepRef;
}

/** The steps to undo (their indexes) among the turn's steps. */
export interface StepChoice {
  indexes: number[];
  groups: StepGroup[];
}

export class Rollbacks {
  constructor(
    private readonly ctx: RollbackDeps,
    private readonly mutations: Mutations,
  ) {}

  turnJob(turnId: string, opts: JobOptions & { uris?: string[]; steps?: StepChoice }): Job {
    const turn = this.ctx.store.turns.get(turnId);
    if (!turn) throw new TurnNotFoundError(turnId);
    const asking = opts.inTurn === undefined ? {} : { inTurn: opts.inTurn, step: checkStep(opts.step) };
    if (opts.inTurn !== undefined) checkAskedInTurn(turn, opts.inTurn, opts.withChat === true);
    if (opts.steps?.indexes.length) {
      if (opts.uris?.length) throw new BadRequestError('choose paths or steps, not both');
      if (opts.withChat)
        throw new BadRequestError('a step is undone without the chat: rollback-with-chat takes the whole turn');
      const indexes = [...new Set(opts.steps.indexes)].sort((a, b) => a - b);
      const { coverage, laterSteps } = stepCoverage(this.ctx, turn, opts.steps.groups, indexes);
      return {
        sessionId: turn.sessionId,
        turnId,
        coverage,
        withChat: false,
        force: opts.force ?? false,
        onConflict: opts.onConflict ?? 'refuse',
        number: turn.number,
        rewind: false,
        laterSteps,
        title: `Undo of step${indexes.length > 1 ? 's' : ''} ${indexes.join(', ')} of #${turn.number}`,
        ...asking,
      };
    }
    return {
      sessionId: turn.sessionId,
      turnId,
      coverage: coverageOf(this.ctx, [turn]),
      selection: opts.uris?.length ? opts.uris : undefined,
      withChat: opts.withChat ?? false,
      force: opts.force ?? false,
      onConflict: opts.onConflict ?? 'refuse',
      number: turn.number,
      rewind: false,
      title: undoTitle(this.ctx, turn),
      ...asking,
    };
  }

  rewindJob(sessionId: string, opts: JobOptions & { toTurnId: string }): Job {
    if (!this.ctx.store.sessions.get(sessionId)) throw new SessionNotFoundError(sessionId);
    const to = this.ctx.store.turns.get(opts.toTurnId);
    if (!to || to.sessionId !== sessionId) throw new TurnNotFoundError(opts.toTurnId);
    if (to.kind === 'pin') {
      if (opts.withChat)
        throw new BadRequestError('a pin is rewound to without the chat: its turns belong to other sessions');
      return {
        sessionId,
        turnId: to.turnId,
        coverage: coverageOf(this.ctx, turnsSincePin(this.ctx, to)),
        withChat: false,
        force: opts.force ?? false,
        onConflict: opts.onConflict ?? 'refuse',
        number: to.number,
        rewind: true,
        title: `Rewind to pin "${to.title}"`,
      };
    }
    return {
      sessionId,
      turnId: to.turnId,
      coverage: coverageOf(this.ctx, this.ctx.store.turns.from(sessionId, to.number)),
      withChat: opts.withChat ?? false,
      force: opts.force ?? false,
      onConflict: opts.onConflict ?? 'refuse',
      number: to.number,
      rewind: true,
      title: `Rewind to #${to.number}`,
    };
  }

  /**
   * The asking turn a job is recorded in: the session's active turn when the job names it. A
   * job naming a turn that has ended since is a rollback turn of its own; another active turn refuses.
   */
  private askingTurn(job: Job): TurnContext | null {
    if (job.inTurn === undefined) return null;
    const active = this.ctx.turns.activeId(job.sessionId);
    if (active === null) return null;
    if (active !== job.inTurn) throw new TurnActiveError(job.sessionId);
    return this.ctx.turns.recordingOrResumed(active);
  }

  /**
   * An undo from the agent's own chat: the paths driven back inside the asking turn, as a step of
   * it (the asking tool call's), the turn undone marked rolled back by the asking turn, whose
   * undo record puts that status back when the asking turn is itself undone.
   */
  private async executeInTurn(job: Job, turn: TurnContext): Promise<RollbackResult> {
    const { ctx } = this;
    const { selected, modesGiven, paths, kept } = await this.evaluateOrRefuse(job);
    const unlisted = unlistedFolders(job.coverage.turns, selected, (id) => ctx.store.commands.previews(id));
    const { outcome, changedAnything, failedUris, failure } = await applyAsStep(ctx, this.mutations, turn, job, paths);
    if (changedAnything) markConcurrent(ctx, job.sessionId, turn.turnId);
    const { replaced, ...done } = outcome;
    const result: RollbackResult = {
      ok: true,
      turnId: job.turnId,
      rollbackTurnId: turn.turnId,
      ...done,
      ...(replaced.length > 0 ? { replaced } : {}),
      ...(job.onConflict === 'keep-both' ? { keptBoth: kept.map(({ uri, copy }) => ({ uri, copy })) } : {}),
      unchanged: paths.filter((p) => !p.soft && p.status === 'unchanged').map((p) => p.uri),
      errors: [
        ...paths
          .filter((p) => !p.soft && p.status === 'blocked')
          .map((p) => ({ uri: p.uri, code: p.code!, message: p.message ?? '' })),
        ...outcome.errors,
      ],
    };
    countModesGiven(
      result,
      modesGiven.map((g) => g.uri),
    );
    nameUnlisted(result, unlisted);
    result.ok = result.errors.length === 0 && failure === null;
    const statuses =
      failure === null
        ? await this.newStatuses(job, result.ok, paths, new Set([...failedUris, ...unlisted]))
        : new Map<string, TurnStatus>();
    ctx.store.transaction(() => {
      const undo = ctx.store.turns.get(turn.turnId)?.undo ?? {
        statuses: {},
        deletedMessages: [],
        restoredMessages: [],
      };
      for (const id of statuses.keys()) {
        const row = ctx.store.turns.get(id);
        if (row && !(id in undo.statuses)) undo.statuses[id] = { status: row.status, rolledBackBy: row.rolledBackBy };
      }
      ctx.store.turns.setUndo(turn.turnId, undo);
      for (const [id, status] of statuses) ctx.store.turns.setStatus(id, status, turn.turnId);
      // Every file written over in place is whole again: nothing for a recovery to finish.
      if (failure === null) ctx.store.overwrites.clear(turn.turnId);
    });
    if (failure !== null) throw failure;
    if (!changedAnything && modesGiven.length === 0 && statuses.size === 0)
      Object.assign(result, { rollbackTurnId: null, changedNothing: true });
    ctx.events.emit('rollback-done', {
      sessionId: job.sessionId,
      turnId: job.turnId,
      rollbackTurnId: result.rollbackTurnId,
      ok: result.ok,
    });
    return result;
  }

  private refuseWhileActive(sessionId: string): void {
    if (this.ctx.turns.activeId(sessionId)) throw new TurnActiveError(sessionId);
  }

  private messagesToDelete(job: Job): StoredMessage[] {
    if (!job.withChat) return [];
    if (!job.rewind) return this.ctx.store.messages.liveOfTurns([job.turnId]);
    const firsts = job.coverage.turns
      .map((t) => this.ctx.store.messages.firstOrd(t.turnId))
      .filter((o): o is number => o !== undefined);
    return firsts.length ? this.ctx.store.messages.liveFrom(job.sessionId, Math.min(...firsts)) : [];
  }

  /** The paths to drive, with what `keep-both` turned from conflicts into copies beside them. */
  private async evaluateJob(
    job: Job,
    selected = selectedPaths(job),
    check: ContentCheck = 'verify',
  ): Promise<{ paths: EvaluatedPath[]; kept: KeptBoth[] }> {
    const paths = await evaluate(this.ctx, selected, job.coverage.links, check);
    return job.onConflict === 'keep-both' ? keepBoth(this.ctx, paths, job.number) : { paths, kept: [] };
  }

  async preview(job: Job): Promise<Plan> {
    const { paths, kept } = await this.evaluateJob(job);
    const current = new Map(paths.map((p) => [p.uri, p.current]));
    const copies = new Set(kept.map((k) => k.copy));
    const actions = [
      ...planActions(paths).filter((a) => !copies.has(a.uri)),
      ...kept.map((k) => ({ uri: k.uri, action: 'keep-both' as const, copy: k.copy, conflict: true })),
    ];
    for (const k of kept) current.set(k.uri, k.current);
    const authors = conflictAuthors(
      this.ctx.store.turns,
      actions.filter((a) => a.conflict).map((a) => ({ uri: a.uri, current: current.get(a.uri) ?? null })),
      job.coverage.turns,
    );
    return {
      turnId: job.turnId,
      actions: actions.map((a) => {
        const later = a.conflict ? job.laterSteps?.get(a.uri) : undefined;
        // A path the turn's own later step changed, and nothing since: that step is the conflict.
        if (later && sameForDrift(current.get(a.uri) ?? null, this.turnFinal(job, a.uri))) {
          return { ...a, conflictStep: { index: later.index, title: later.title } };
        }
        const author = a.conflict ? authors.get(a.uri) : undefined;
        return author ? { ...a, conflictTurn: author } : a;
      }),
      folders: planFolders(paths),
      conflicts: paths.filter((p) => !p.soft && p.status === 'conflict').map((p) => p.uri),
      unrestorable: paths.filter((p) => !p.soft && p.status === 'blocked').map((p) => ({ uri: p.uri, code: p.code! })),
      messages: this.messagesToDelete(job).map(toMessage),
    };
  }

  /** Runs in the session's queue: after what the session's agent sent before it, refused while its turn is active. */
  run(job: Job): Promise<RollbackResult> {
    return this.ctx.queue.run(job.sessionId, () => this.execute(job));
  }

  /** The job's paths evaluated against the disk; a conflict refuses the job unless it is forced. */
  private async evaluateOrRefuse(job: Job) {
    const selected = selectedPaths(job);
    // What the engine owns but may not read gets its mode back first, so it can be captured and restored.
    const modesGiven = await restoreModesFirst(this.ctx, selected);
    const { paths, kept } = await this.evaluateJob(job, selected, 'present');
    givenBackIsNoDrift(paths, modesGiven);
    const conflicts = paths.filter((p) => !p.soft && p.status === 'conflict').map((p) => p.uri);
    if (conflicts.length > 0 && !job.force) {
      await takeModesBack(this.ctx, modesGiven);
      throw new ConflictError(conflicts);
    }
    return { selected, modesGiven, paths, kept };
  }

  private async execute(job: Job): Promise<RollbackResult> {
    const { ctx } = this;
    const asking = this.askingTurn(job);
    if (asking) return this.executeInTurn(job, asking);
    this.refuseWhileActive(job.sessionId);
    await endStrandedRollbackTurns(ctx, job.sessionId);
    const { selected, modesGiven, paths, kept } = await this.evaluateOrRefuse(job);
    const result: RollbackResult = {
      ok: true,
      turnId: job.turnId,
      rollbackTurnId: null,
      restored: [],
      deleted: [],
      movedBack: [],
      ...(job.onConflict === 'keep-both' ? { keptBoth: kept.map(({ uri, copy }) => ({ uri, copy })) } : {}),
      unchanged: paths.filter((p) => !p.soft && p.status === 'unchanged').map((p) => p.uri),
      errors: paths
        .filter((p) => !p.soft && p.status === 'blocked')
        .map((p) => ({ uri: p.uri, code: p.code!, message: p.message ?? '' })),
    };
    const messages = this.messagesToDelete(job);
    const undoneRollback = !job.rewind ? this.undoRecordOf(job.coverage.turns[0]) : null;
    const unlisted = unlistedFolders(job.coverage.turns, selected, (id) => ctx.store.commands.previews(id));
    const modesFirst = new Set(modesGiven.map((g) => g.uri));
    // A mode given back is a restore: the rollback turn keeps the statuses it changes.
    const hasWork = paths.some((p) => p.status === 'action' || p.status === 'conflict') || modesFirst.size > 0;
    if (!hasWork && messages.length === 0 && !(undoneRollback && this.pending(undoneRollback))) {
      if (job.withChat) result.deletedMessages = 0;
      result.ok = result.errors.length === 0;
      nameUnlisted(result, unlisted);
      result.ok = result.errors.length === 0;
      if (result.ok) result.rollbackTurnId = await this.finishStranded(job, paths);
      if (result.rollbackTurnId === null) result.changedNothing = true;
      ctx.events.emit('rollback-done', {
        sessionId: job.sessionId,
        turnId: job.turnId,
        rollbackTurnId: result.rollbackTurnId,
        ok: result.ok,
      });
      return result;
    }
    const covered = job.coverage.turns.map((t) => t.turnId);
    const rollbackTurn = beginTurn(ctx, job.sessionId, 'rollback', job.title, covered);
    for (const [key, lines] of job.coverage.knownLines ?? []) rollbackTurn.knownLines.set(key, lines);
    const undo: UndoRecord = { statuses: {}, deletedMessages: [], restoredMessages: [] };
    for (const id of [...covered, ...Object.keys(undoneRollback?.statuses ?? {})]) {
      const row = ctx.store.turns.get(id);
      if (row && !(id in undo.statuses)) undo.statuses[id] = { status: row.status, rolledBackBy: row.rolledBackBy };
    }
    ctx.store.turns.setUndo(rollbackTurn.turnId, undo);
    const applier = new Applier(ctx, this.mutations, rollbackTurn);
    let failure: unknown = null;
    try {
      await applier.apply(paths);
    } catch (e) {
      failure = e;
    }
    if (applier.changedAnything) markConcurrent(ctx, job.sessionId, rollbackTurn.turnId);
    const blocked = result.errors;
    const { replaced, ...outcome } = applier.outcome;
    Object.assign(result, outcome, { rollbackTurnId: rollbackTurn.turnId }, replaced.length > 0 ? { replaced } : {});
    result.errors = [...blocked, ...applier.outcome.errors];
    countModesGiven(result, modesFirst);
    nameUnlisted(result, unlisted);
    result.ok = result.errors.length === 0 && failure === null;
    const statuses =
      failure === null
        ? await this.newStatuses(job, result.ok, paths, new Set([...applier.failedUris, ...unlisted]))
        : new Map<string, TurnStatus>();
    if (
      !applier.changedAnything &&
      modesFirst.size === 0 &&
      messages.length === 0 &&
      !undoneRollback &&
      (failure !== null || statuses.size === 0)
    ) {
      // Nothing on disk, in the chat or in a status changed: no empty "undo" in the timeline.
      this.dropRollbackTurn(rollbackTurn.turnId);
      if (failure !== null) throw failure;
      Object.assign(result, { rollbackTurnId: null, changedNothing: true });
      if (job.withChat) result.deletedMessages = 0;
      ctx.events.emit('rollback-done', {
        sessionId: job.sessionId,
        turnId: job.turnId,
        rollbackTurnId: null,
        ok: result.ok,
      });
      return result;
    }
    let restoredIds: string[] = [];
    let deletedIds: string[] = [];
    // The statuses and messages land in the rollback turn's own commit: a kill can never leave
    // a committed rollback turn whose turns still say they were not rolled back.
    const settle = () => {
      restoredIds = [];
      deletedIds = [];
      if (failure !== null) return;
      if (undoneRollback) {
        for (const [id, s] of Object.entries(undoneRollback.statuses))
          ctx.store.turns.setStatus(id, s.status, s.rolledBackBy);
        restoredIds = restoreMessages(ctx, undoneRollback.deletedMessages);
        deletedIds = deleteMessages(ctx, undoneRollback.restoredMessages, rollbackTurn.turnId);
      }
      deletedIds = [
        ...deletedIds,
        ...deleteMessages(
          ctx,
          messages.map((m) => m.id),
          rollbackTurn.turnId,
        ),
      ];
      for (const [id, status] of statuses) ctx.store.turns.setStatus(id, status, rollbackTurn.turnId);
      undo.deletedMessages = deletedIds;
      undo.restoredMessages = restoredIds;
      ctx.store.turns.setUndo(rollbackTurn.turnId, undo);
    };
    // Even a rollback cut short is committed (interrupted): what it did stays undoable, and
    // running it again completes it. Its commit failing is not the end of it either.
    await endTurnOrWithoutAfterContents(ctx, rollbackTurn.turnId, job.sessionId, failure !== null, settle);
    if (failure !== null) throw failure;
    if (job.withChat) result.deletedMessages = messages.length;
    if (deletedIds.length)
      ctx.events.emit('memory:messages-deleted', { sessionId: job.sessionId, messageIds: deletedIds });
    if (restoredIds.length)
      ctx.events.emit('memory:messages-restored', { sessionId: job.sessionId, messageIds: restoredIds });
    ctx.events.emit('rollback-done', {
      sessionId: job.sessionId,
      turnId: job.turnId,
      rollbackTurnId: rollbackTurn.turnId,
      ok: result.ok,
    });
    return result;
  }

  /** A rollback turn that changed nothing goes whole: its rows, and the contents it alone held (left to the sweep). */
  private dropRollbackTurn(turnId: string): void {
    this.ctx.store.transaction(() => this.ctx.store.dropTurn(turnId));
    this.ctx.turns.end(turnId);
  }

  /**
   * A rollback killed after its last write but before it set the statuses leaves every path in
   * place and nothing to do: running it again completes it by setting them, in the name of the
   * interrupted rollback turn (whose undo record already holds the statuses from before).
   */
  private async finishStranded(job: Job, paths: EvaluatedPath[]): Promise<string | null> {
    const covered = job.coverage.turns.map((t) => t.turnId);
    const stranded = this.ctx.store.turns.interruptedRollbackOf(job.sessionId, covered);
    if (!stranded) return null;
    const untouched = covered.every((id) => {
      const row = this.ctx.store.turns.get(id);
      return row !== undefined && row.rolledBackBy === null && row.status === 'committed';
    });
    if (!untouched) return null;
    const statuses = await this.newStatuses(job, true, paths, new Set());
    this.ctx.store.transaction(() => {
      for (const [id, status] of statuses) this.ctx.store.turns.setStatus(id, status, stranded.turnId);
    });
    return stranded.turnId;
  }

  /** Whether undoing a rollback turn would still change a status or a message. */
  private pending(undo: UndoRecord): boolean {
    const { store } = this.ctx;
    const statusDiffers = Object.entries(undo.statuses).some(([id, s]) => {
      const row = store.turns.get(id);
      return row !== undefined && (row.status !== s.status || row.rolledBackBy !== s.rolledBackBy);
    });
    return (
      statusDiffers ||
      undo.deletedMessages.some((id) => !!store.messages.deletedBy(id)) ||
      undo.restoredMessages.some((id) => store.messages.deletedBy(id) === null)
    );
  }

  /** What undoing the turn puts back besides files: a rollback turn's record, or that of an agent turn that undid another from its chat. */
  private undoRecordOf(turn: StoredTurn | undefined): UndoRecord | null {
    if (!turn || turn.kind === 'pin') return null;
    return turn.undo;
  }

  /** The state the turn left `uri` in (its summary's after-state). */
  private turnFinal(job: Job, uri: string): State {
    const row = this.ctx.store.entries.changesOf(job.turnId).find((c) => c.uri === uri);
    return row ? row.after : null;
  }

  /** Rewind marks every covered turn; a single rollback looks at how many paths reached their target. */
  private async newStatuses(
    job: Job,
    ok: boolean,
    done: EvaluatedPath[],
    failed: ReadonlySet<string>,
  ): Promise<Map<string, TurnStatus>> {
    const statuses = new Map<string, TurnStatus>();
    if (job.laterSteps) {
      // A step undone leaves the rest of the turn as it was: the turn is rolled back in part.
      if (done.some((p) => (p.status === 'action' || p.status === 'conflict') && !failed.has(p.uri)))
        statuses.set(job.turnId, 'partially-rolled-back');
      return statuses;
    }
    if (job.rewind) {
      for (const t of job.coverage.turns) statuses.set(t.turnId, ok ? 'rolled-back' : 'partially-rolled-back');
      return statuses;
    }
    const known = new Map(done.map((p) => [p.uri, p]));
    const rest = await evaluate(
      this.ctx,
      job.coverage.paths.filter((p) => !known.has(p.uri)),
      job.coverage.links,
      'present',
    );
    const driven = job.coverage.paths.map((p) => known.get(p.uri)).filter((p): p is EvaluatedPath => !!p);
    const drivenBack = (p: EvaluatedPath) =>
      p.status === 'unchanged' || ((p.status === 'action' || p.status === 'conflict') && !failed.has(p.uri));
    const back = driven.filter(drivenBack).length + rest.filter((p) => p.status === 'unchanged').length;
    const total = driven.length + rest.length;
    if (total === 0 || back === total) statuses.set(job.turnId, 'rolled-back');
    else if (back > 0) statuses.set(job.turnId, 'partially-rolled-back');
    return statuses;
  }
}

/** Every other session's active turn is told that `byTurnId` changes files while it runs (Turn.concurrent). */
function markConcurrent(ctx: RollbackDeps, sessionId: string, byTurnId: string): void {
  ctx.store.transaction(() => {
    for (const session of ctx.store.sessions.list())
      if (session.activeTurnId && session.sessionId !== sessionId)
        ctx.store.turns.addConcurrent(session.activeTurnId, byTurnId);
  });
}

/** An undo asked for inside an agent's turn undoes an earlier agent turn of that session, never the asking one, without its chat. */
function checkAskedInTurn(turn: StoredTurn, inTurn: string, withChat: boolean): void {
  if (turn.turnId === inTurn) throw new BadRequestError('the asking turn is never undone from inside itself');
  if (turn.kind !== 'agent') throw new BadRequestError('only an agent turn is undone from inside an agent turn');
  if (withChat)
    throw new BadRequestError("an undo from the agent's chat leaves the chat: the host keeps its own transcript");
}

/** The paths a job drives: its selection with what is chained to it, or all it covers. */
function selectedPaths(job: Job): PathTarget[] {
  return job.selection ? selectPaths(job.coverage, job.selection) : job.coverage.paths;
}

/**
 * A rollback turn's title in the words the terminal and the console use: `Undo of #N`, and for
 * the undo of an undo (a redo) `Redo of #N`, N the agent turn whose work comes back.
 */
function undoTitle(ctx: RollbackDeps, turn: StoredTurn): string {
  let undoing = true;
  let turns = [turn];
  // Down a chain of undos of undos to the work at its end: each level flips undo and redo.
  for (let depth = 0; depth < 100 && turns.length > 0 && turns.every((t) => t.kind === 'rollback'); depth++) {
    const below = turns.flatMap((t) => t.rollbackOf ?? []).map((id) => ctx.store.turns.get(id));
    if (below.some((t) => t === undefined)) break;
    turns = below as StoredTurn[];
    undoing = !undoing;
  }
  const numbers = [...new Set(turns.map((t) => t.number))].sort((a, b) => a - b);
  const which = numbers.length === 1 ? `#${numbers[0]}` : `#${numbers[0]}–#${numbers.at(-1)}`;
  return `${undoing ? 'Undo' : 'Redo'} of ${which}`;
}
