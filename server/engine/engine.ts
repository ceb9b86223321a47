// The Engine the library API describes: each call checks its input, runs in its session's
// queue when it changes anything, and maps stored rows to the API's shapes.
import type {
  AgentBeforeMutateResponse,
  AgentExecEndResponse,
  AgentExecUnseenResponse,
  AgentExecResponse,
  AgentInputResponse,
  Diff,
  ExecCommand,
  IndexBuildStatus,
  WatcherStatus,
  Manifest,
  Message,
  MutationOp,
  Comparison,
  OnConflict,
  Pin,
  Plan,
  Role,
  RollbackResult,
  Session,
  SessionOrigin,
  Step,
  StepRef,
  StoreBudget,
  StoreStats,
  Turn,
} from '../protocol.js';
import { AGENT_ROLES, MUTATION_OPS } from '../protocol.js';
import type { Engine, EngineEventMap, EngineEventName } from './api.js';
import type { EngineContext } from './context.js';
import { diffOf, diffsOf } from './turns/diff.js';
import {
  BadRequestError,
  CommandNotFoundError,
  EngineClosedError,
  SessionNotFoundError,
  TooLargeError,
  TurnActiveError,
  TurnNotFoundError,
} from './errors.js';
import { dropSession, pruneSessions, sweepContents } from './turns/gc.js';
import {
  budgetOf,
  personBudgetCandidate,
  pruneForBudget,
  pruneForPersonBudget,
  setBudget,
  takeBudgetNews,
} from './turns/budget.js';
import type { ExecScans } from './record/exec.js';
import { IndexBuild } from './record/index-build.js';
import type { Lock } from './lock.js';
import { appendMessage, listMessages } from './turns/memory.js';
import type { RecoveryReport } from './turns/recovery.js';
import type { Rollbacks, StepChoice } from './rollback/rollback.js';
import { searchTurns } from './turns/search.js';
import { scopeMatches, toSession } from './turns/sessions.js';
import { checkSessionId } from './ids.js';
import { type ControlledStorage, inStep, type Mutations } from './record/storage.js';
import { type StepGroup, stepGroups } from './rollback/steps.js';
import { compareDiff, compareTurns } from './turns/compare.js';
import { listPins, pinHere, PINS_SESSION, unpin } from './turns/pins.js';
import { checkStep } from './record/step-ref.js';
import { beginTurn, endTurnOrWithoutAfterContents, endTurn, titleOf, toEntry, toTurn } from './turns/turns.js';

const ENTRY_OPS: ReadonlySet<string> = new Set(MUTATION_OPS);
const ROLES: ReadonlySet<string> = new Set(AGENT_ROLES);
/** A library caller is the person unless it says otherwise; the server says `agent` for the agent token. */
const originOf = (origin: unknown): SessionOrigin => (origin === 'agent' ? 'agent' : 'person');

export class TurnbackEngine implements Engine {
  private closed = false;
  private readonly indexBuild: IndexBuild;

  constructor(
    private readonly ctx: EngineContext,
    readonly workspace: string,
    readonly storage: ControlledStorage,
    private readonly mutations: Mutations,
    private readonly rollbacks: Rollbacks,
    private readonly execs: ExecScans,
    private readonly lock: Lock,
    /** What recovery found when this engine opened the store. */
    readonly recovery: RecoveryReport,
  ) {
    this.indexBuild = new IndexBuild(ctx, execs);
  }

  get dataDir(): string {
    return this.ctx.dataDir;
  }

  /**
   * Resolves once the background work a turn end starts (writing captured contents as blob
   * files), and a turn start's background scan, are done. For benchmarks and tests that must not measure it inside something else.
   */
  async settled(): Promise<void> {
    if (this.closed) return;
    await this.execs.idle();
    await this.ctx.housekeeping.settled();
  }

  private open(): EngineContext {
    if (this.closed) throw new EngineClosedError();
    return this.ctx;
  }

  private inSession<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    return this.open().queue.run(sessionId, task);
  }

  private async commitActive(sessionId: string): Promise<string | null> {
    const active = this.ctx.turns.activeId(sessionId);
    if (!active) return null;
    await this.closeCommands(active);
    // A commit that cannot keep the after-contents (a full disk) still ends the turn, interrupted:
    // a turn left active would take the person's next edits for its own.
    await endTurnOrWithoutAfterContents(this.ctx, active, sessionId);
    await pruneSessions(this.ctx);
    pruneForBudget(this.ctx);
    return active;
  }

  async input(req: {
    sessionId: string;
    platform: string;
    sessionType: string;
    content: string;
    origin?: SessionOrigin;
  }): Promise<AgentInputResponse> {
    const sessionId = checkSessionId(req?.sessionId);
    const { platform, sessionType, content } = req;
    if (typeof platform !== 'string' || typeof sessionType !== 'string' || typeof content !== 'string') {
      throw new BadRequestError('platform, sessionType and content must be strings');
    }
    return this.inSession(sessionId, async () => {
      await this.commitActive(sessionId);
      const begun = this.ctx.store.relaxed(() => {
        this.ctx.store.sessions.upsert(sessionId, platform, sessionType, this.ctx.now(), originOf(req.origin));
        const turnId = scopeMatches(this.ctx.limits.scopes, platform, sessionType)
          ? beginTurn(this.ctx, sessionId, 'agent', titleOf(content)).turnId
          : null;
        return { turnId, messageId: appendMessage(this.ctx, sessionId, turnId, 'user', content) };
      });
      if (begun.turnId) this.execs.turnStarted(sessionId, begun.turnId);
      return begun;
    });
  }

  async message(req: {
    sessionId: string;
    role: Exclude<Role, 'user'>;
    content: string;
    origin?: SessionOrigin;
    turnId?: string;
  }): Promise<{ messageId: string }> {
    const sessionId = checkSessionId(req?.sessionId);
    if (!ROLES.has(req.role)) throw new BadRequestError('role must be assistant, tool or system', { role: req.role });
    if (typeof req.content !== 'string') throw new BadRequestError('content must be a string');
    return this.inSession(sessionId, async () => {
      if (req.turnId !== undefined && this.ctx.store.turns.get(req.turnId)?.sessionId !== sessionId)
        throw new TurnNotFoundError(req.turnId);
      return this.ctx.store.relaxed(() => {
        this.ctx.store.sessions.ensure(sessionId, this.ctx.now(), originOf(req.origin));
        const turnId = req.turnId ?? this.ctx.turns.activeId(sessionId);
        return { messageId: appendMessage(this.ctx, sessionId, turnId, req.role, req.content) };
      });
    });
  }

  /** A turn's commands still open get their after scans, and background changes since are taken in. */
  private async closeCommands(turnId: string): Promise<void> {
    const turn = this.ctx.turns.get(turnId);
    if (turn) await this.execs.closeTurn(turn);
  }

  async exec(req: { sessionId: string; tool: string; command: string }): Promise<AgentExecResponse> {
    const sessionId = checkSessionId(req?.sessionId);
    if (typeof req.tool !== 'string' || typeof req.command !== 'string')
      throw new BadRequestError('tool and command must be strings');
    return this.inSession(sessionId, async () => {
      const turn = this.ctx.turns.active(sessionId);
      if (!turn) return { turnId: null, execId: null };
      const { turnId } = turn;
      const execId = await this.execs.before(turn, req.tool, req.command);
      return { turnId, execId };
    });
  }

  async execEnd(req: { sessionId: string; execId: string }): Promise<AgentExecEndResponse> {
    const sessionId = checkSessionId(req?.sessionId);
    if (typeof req.execId !== 'string' || req.execId === '')
      throw new BadRequestError('execId must be a non-empty string');
    return this.inSession(sessionId, async () => {
      const turn = this.ctx.turns.active(sessionId);
      if (!turn) return { turnId: null, changed: [], skipped: [] };
      const { turnId } = turn;
      if (this.execs.openIn(turnId).includes(req.execId))
        return { turnId, ...(await this.execs.after(turn, req.execId)) };
      // Already closed (a second exec-end, or one after a turn end scanned it): what it recorded.
      const known = this.execs.recorded(turnId, req.execId);
      if (!known)
        throw new BadRequestError(`no command ${JSON.stringify(req.execId)} in the active turn`, {
          execId: req.execId,
        });
      return { turnId, changed: known.changed ?? [], skipped: known.skipped ?? [] };
    });
  }

  async execUnseen(req: { sessionId: string; tool: string; command?: string }): Promise<AgentExecUnseenResponse> {
    const sessionId = checkSessionId(req?.sessionId);
    if (typeof req.tool !== 'string' || (req.command !== undefined && typeof req.command !== 'string'))
      throw new BadRequestError('tool and command must be strings');
    return this.inSession(sessionId, async () => {
      const turn = this.ctx.turns.active(sessionId);
      if (!turn) return { turnId: null, outcome: 'unchanged', changed: [], skipped: [] };
      const found = await this.execs.unseen(turn, req.tool, req.command ?? '');
      return { turnId: turn.turnId, changed: [], skipped: [], ...found };
    });
  }

  async beforeMutate(req: {
    sessionId: string;
    op: MutationOp;
    uri: string;
    to?: string;
    step?: StepRef;
  }): Promise<AgentBeforeMutateResponse> {
    const sessionId = checkSessionId(req?.sessionId);
    const step = checkStep(req.step);
    if (!ENTRY_OPS.has(req.op))
      throw new BadRequestError('op must be write, delete, rename, move or mkdir', { op: req.op });
    const moves = req.op === 'rename' || req.op === 'move';
    if (moves && req.to === undefined) throw new BadRequestError(`${req.op} needs "to"`);
    return this.inSession(sessionId, async () => {
      const removes = req.op !== 'write' && req.op !== 'mkdir';
      const r = await this.ctx.roots.resolve(req.uri, { removes, content: req.op === 'write' });
      const to = moves ? await this.ctx.roots.resolve(req.to!, { removes: true }) : undefined;
      const turn = this.ctx.turns.active(sessionId);
      if (!turn || !(r.tracked || to?.tracked)) return { recorded: false };
      return inStep(turn, step, async () => {
        try {
          await this.mutations.record(turn, req.op, r, to);
        } catch (e) {
          if (!(e instanceof TooLargeError)) throw e;
          // The host changes the file itself: it is told, and the change is recorded as skipped, never silent.
          await this.mutations.record(turn, req.op, r, to, true);
          return { recorded: false, skipped: e.skip };
        }
        return { recorded: true };
      });
    });
  }

  async turnEnd(req: { sessionId: string }): Promise<{ turnId: string | null }> {
    const sessionId = checkSessionId(req?.sessionId);
    return this.inSession(sessionId, async () => ({ turnId: await this.commitActive(sessionId) }));
  }

  listSessions(): Session[] {
    return this.open().store.sessions.list().map(toSession);
  }

  private requireSession(sessionId: string): void {
    if (!this.open().store.sessions.get(sessionId)) throw new SessionNotFoundError(sessionId);
  }

  listTurns(sessionId: string, opts: { limit?: number; before?: number } = {}): Turn[] {
    this.requireSession(sessionId);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
    const before = opts.before && opts.before > 0 ? opts.before : Number.MAX_SAFE_INTEGER;
    return this.ctx.store.turns.list(sessionId, limit, before).map((row) => toTurn(this.ctx, row));
  }

  searchTurns(sessionId: string, text: string, opts: { limit?: number; before?: number } = {}): Turn[] {
    return searchTurns(this.open(), sessionId, text, opts);
  }

  getManifest(turnId: string): Manifest {
    const row = this.open().store.turns.get(turnId);
    if (!row) throw new TurnNotFoundError(turnId);
    const tracked = (uri: string) => this.ctx.roots.isTrackedUri(uri);
    return {
      turn: toTurn(this.ctx, row),
      files: this.ctx.store.entries
        .changesOf(turnId)

        .filter((c) => tracked(c.uri)),
      entries: this.ctx.store.entries
        .of(turnId)
        .map(toEntry)
        .filter((e) => tracked(e.uri) || (e.to !== undefined && tracked(e.to))),
    };
  }

  command(turnId: string, execId: string): ExecCommand {
    if (!this.open().store.turns.get(turnId)) throw new TurnNotFoundError(turnId);
    const found = this.ctx.store.commands.get(turnId, execId);
    if (!found) throw new CommandNotFoundError(turnId, execId);
    const { scanned: _scanned, ...command } = found;
    return command;
  }

  messages(sessionId: string, opts: { turnId?: string; limit?: number; before?: number } = {}): Message[] {
    this.requireSession(sessionId);
    return listMessages(this.ctx, sessionId, opts);
  }

  diff(turnId: string, uri: string): Promise<Diff> {
    return diffOf(this.open(), turnId, uri);
  }

  diffs(turnId: string, uris: string[]): Promise<Diff[]> {
    return diffsOf(this.open(), turnId, uris);
  }

  storeStats(): StoreStats {
    const { store } = this.open();
    const { blobs, bytes } = this.ctx.contents.stats();
    return {
      sessions: store.sessions.count(),
      turns: store.turns.count(),
      blobs,
      bytes,
      dataDir: this.ctx.dataDir,
      retention: { keepDays: this.ctx.limits.keepDays, keepSessions: this.ctx.limits.keepSessions },
      pruned: this.ctx.retention.pruned,
      budget: budgetOf(this.ctx),
      unprotected: this.execs.overBudget().map(({ uri, files, bytes }) => ({ uri, files, bytes })),
      index: this.indexBuild.status(),
      watcher: this.execs.watcherStatus(),
    };
  }

  setStoreBudget(bytes: number | null): StoreBudget {
    this.open();
    if (bytes !== null && !(Number.isSafeInteger(bytes) && bytes > 0))
      throw new BadRequestError('bytes must be a positive whole number of bytes, or null for the default', { bytes });
    return setBudget(this.ctx, bytes);
  }

  takeBudgetNews(): string | null {
    return takeBudgetNews(this.open(), this.workspace);
  }

  personBudgetCandidate(): { sessionId: string; lastActivity: number } | null {
    return personBudgetCandidate(this.open());
  }

  pruneForPersonBudget(sessionId: string, why: string): Promise<boolean> {
    // In the session's queue: nothing of that session is under way while it goes.
    return this.inSession(sessionId, async () => pruneForPersonBudget(this.ctx, sessionId, this.workspace, why));
  }

  buildIndex(): Promise<IndexBuildStatus> {
    this.open();
    return this.indexBuild.start();
  }

  indexStatus(): IndexBuildStatus {
    this.open();
    return this.indexBuild.status();
  }

  watcherStatus(): WatcherStatus {
    this.open();
    return this.execs.watcherStatus();
  }

  private refuseActiveTurn(turnId: string): void {
    const row = this.open().store.turns.get(turnId);
    if (!row) throw new TurnNotFoundError(turnId);
    if (row.status === 'active') throw new TurnActiveError(row.sessionId);
  }

  async preview(
    turnId: string,
    opts: { uris?: string[]; withChat?: boolean; onConflict?: OnConflict; steps?: number[] } = {},
  ): Promise<Plan> {
    this.refuseActiveTurn(turnId);
    return this.rollbacks.preview(
      this.rollbacks.turnJob(turnId, { ...opts, steps: this.stepChoice(turnId, opts.steps) }),
    );
  }

  linkTurn(turnId: string, link: { root: string; turnId: string }): void {
    const store = this.open().store;
    if (!store.turns.get(turnId)) throw new TurnNotFoundError(turnId);
    store.turns.addLink(turnId, { root: link.root, turnId: link.turnId });
  }

  /** Marks the workspace's current state as a named point (a turn of the pins session). */
  async pin(opts: { name?: string } = {}): Promise<Pin> {
    this.open();
    return this.ctx.queue.run(PINS_SESSION, () => pinHere(this.ctx, opts.name));
  }

  pins(): Pin[] {
    return listPins(this.open());
  }

  async unpin(turnId: string): Promise<void> {
    this.open();
    await this.ctx.queue.run(PINS_SESSION, async () => unpin(this.ctx, turnId));
  }

  compare(fromTurnId: string, toTurnId: string): Comparison {
    return compareTurns(this.open(), fromTurnId, toTurnId);
  }

  compareDiff(fromTurnId: string, toTurnId: string, uri: string): Promise<Diff> {
    return compareDiff(this.open(), fromTurnId, toTurnId, uri);
  }

  /** The turn's steps: each tool call or shell command that changed something, in order. */
  steps(turnId: string): Step[] {
    return this.stepGroupsOf(turnId).map((g) => g.step);
  }

  private stepGroupsOf(turnId: string): StepGroup[] {
    const turn = this.getManifest(turnId).turn;
    return stepGroups(this.ctx, turnId, turn.execCommands);
  }

  private stepChoice(turnId: string, indexes: number[] | undefined): StepChoice | undefined {
    return indexes?.length ? { indexes, groups: this.stepGroupsOf(turnId) } : undefined;
  }

  // Refused while the session's agent turn is active, unless that turn is the one asking
  // (`inTurn`): checked once, in the session's queue (rollback.ts).
  async rollback(
    turnId: string,
    opts: {
      uris?: string[];
      force?: boolean;
      onConflict?: OnConflict;
      steps?: number[];
      inTurn?: string;
      step?: StepRef;
    } = {},
  ): Promise<RollbackResult> {
    this.open();
    const steps = this.stepChoice(turnId, opts.steps);
    const { uris, force, onConflict, inTurn, step } = opts;
    return this.rollbacks.run(this.rollbacks.turnJob(turnId, { uris, force, onConflict, steps, inTurn, step }));
  }

  async rollbackWithChat(
    turnId: string,
    opts: { force?: boolean; onConflict?: OnConflict } = {},
  ): Promise<RollbackResult> {
    this.open();
    return this.rollbacks.run(
      this.rollbacks.turnJob(turnId, { withChat: true, force: opts.force, onConflict: opts.onConflict }),
    );
  }

  async previewRewind(
    sessionId: string,
    opts: { toTurnId: string; withChat?: boolean; onConflict?: OnConflict },
  ): Promise<Plan> {
    this.open();
    return this.rollbacks.preview(this.rollbacks.rewindJob(sessionId, opts));
  }

  async rewind(
    sessionId: string,
    opts: { toTurnId: string; withChat?: boolean; force?: boolean; onConflict?: OnConflict },
  ): Promise<RollbackResult> {
    this.open();
    return this.rollbacks.run(this.rollbacks.rewindJob(sessionId, opts));
  }

  async clearSession(sessionId: string): Promise<void> {
    this.requireSession(sessionId);
    await this.inSession(sessionId, async () => {
      dropSession(this.ctx, sessionId);
      sweepContents(this.ctx);
    });
  }

  on<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): () => void {
    return this.ctx.events.on(event, listener);
  }

  off<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): void {
    this.ctx.events.off(event, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Before the queue drains: a before scan waiting on the build would otherwise wait for all of it.
    await this.indexBuild.stop();
    await this.ctx.queue.drain();
    for (const session of this.ctx.store.sessions.list()) {
      if (!session.activeTurnId) continue;
      await this.closeCommands(session.activeTurnId);
      await endTurn(this.ctx, session.activeTurnId, session.sessionId);
    }
    await this.execs.close();
    await this.ctx.housekeeping.close();
    this.ctx.store.close();
    await this.lock.release();
  }
}
