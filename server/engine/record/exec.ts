// Commands the engine cannot see into (a shell, a code runner, an MCP tool) are undone by
// scanning around them. The before scan brings the workspace index up to date with the disk
// and stores every tracked file's current content, durably, before the command may run; it
// keeps a snapshot of the index as the command's baseline. The after scan compares the disk
// with that snapshot: every path whose state changed becomes an `exec` entry of the turn, with
// the snapshot's state as its before-state. A turn end runs the after scan of every command
// still open, then one more scan for what a background process changed since.
// Scans run one at a time (the index is one); commands of two sessions open at once are
// attributed to both turns and said so (`concurrent`).
import type { ExecSkipped } from '../../protocol.js';
import type { StoredCommand } from '../db/commands.js';
import { type ExecChange, recordExecChanges } from './capture.js';
import { findMoves } from './exec-moves.js';
import type { EngineContext, TurnContext } from '../context.js';
import { BadRequestError } from '../errors.js';
import { KeyedQueue } from '../queue.js';
import { newId } from '../ids.js';
import { type ScanOptions, type ScanResult, scanTree } from './scan.js';
import { isBelowAny } from '../paths/uri.js';
import type { OverBudget } from './ignored-folders.js';
import { type IndexEntry, WorkspaceIndex, stateOf } from './workspace-index.js';

/** A before scan stores what it has read every this many bytes, so its memory stays bounded. */
const PARTIAL_COMMIT_BYTES = 8 << 20;
/**
 * The background build stores smaller parts: each is one synchronous transaction, during which
 * a hook's request waits, and a stopped build resumes from the last one.
 */
const BUILD_PARTIAL_COMMIT_BYTES = 1 << 20;

interface OpenExec {
  execId: string;
  sessionId: string;
  turnId: string;
  /** The index as the before scan left it: what the command found. */
  snapshot: Map<string, IndexEntry>;
  opaque: Map<string, string>;
  /** Ignored folders the before scan left out over their budget. */
  overBudget: OverBudget[];
  /** Another session's command ran at the same time. */
  concurrent: boolean;
}

export interface ExecOutcome {
  changed: string[];
  skipped: ExecSkipped[];
}

export class ExecScans {
  readonly index: WorkspaceIndex;
  private readonly open = new Map<string, OpenExec>();
  /** One scan at a time, whichever session asks. */
  private readonly lock = new KeyedQueue();
  /** Non-UTF-8 names as the last scan saw them (the index cannot hold them). */
  private lastOpaque = new Map<string, string>();
  /** Ignored folders the last scan left out over their budget (not protected). */
  private lastOverBudget: OverBudget[] = [];

  constructor(private readonly ctx: EngineContext) {
    this.index = new WorkspaceIndex(ctx.store);
  }

  private scanning<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.run('scan', task);
  }

  /** Contents only an open command's snapshot still names: the sweep must keep them. */
  heldHashes(): Set<string> {
    const held = new Set<string>();
    for (const exec of this.open.values())
      for (const entry of exec.snapshot.values()) if (entry.hash) held.add(entry.hash);
    return held;
  }

  openIn(turnId: string): string[] {
    return [...this.open.values()].filter((e) => e.turnId === turnId).map((e) => e.execId);
  }

  /** The before scan: the index made current, every content stored and synced, a snapshot kept. */
  async before(turn: TurnContext, execId: string): Promise<void> {
    await this.scanning(async () => {
      const scan = await this.scanIntoIndex(() =>
        this.updateCommand(turn.turnId, execId, (c) => {
          c.scanned = true;
        }),
      );
      const others = [...this.open.values()].filter((e) => e.sessionId !== turn.sessionId);
      for (const other of others) other.concurrent = true;
      this.open.set(execId, {
        // What the scan found is what the index now holds: the command's baseline, never changed after.
        execId,
        sessionId: turn.sessionId,
        turnId: turn.turnId,
        snapshot: scan.current,
        opaque: scan.opaque,
        overBudget: scan.overBudget,
        concurrent: others.length > 0,
      });
    });
  }

  /**
   * The index built in the background (index-build.ts): the before scan's own scan, paced by
   * `pace`, in the same queue, so a command's before scan that comes meanwhile waits for it and
   * then reads only what changed since.
   */
  async build(pace: NonNullable<ScanOptions['pace']>): Promise<void> {
    await this.scanning(() => this.scanIntoIndex(() => undefined, { pace, partialBytes: BUILD_PARTIAL_COMMIT_BYTES }));
  }

  /** Brings the index to the disk, storing as it goes; the last store is synced. */
  private async scanIntoIndex(
    alsoInTransaction: () => void,
    { pace, partialBytes = PARTIAL_COMMIT_BYTES }: { pace?: ScanOptions['pace']; partialBytes?: number } = {},
  ): Promise<ScanResult> {
    const { ctx, index } = this;
    // One batch throughout: each partial store empties it, and the scan keeps on filling it.
    const batch = ctx.contents.batch();
    let partsStored = false;
    const storePart = (fresh: Map<string, IndexEntry>) => {
      partsStored = true;
      ctx.store.relaxed(() => {
        batch.commit();
        index.updatePart(fresh);
      });
    };
    let scan: ScanResult;
    try {
      // A copy: the partial stores change the index while the scan still reads its baseline.
      scan = await scanTree(ctx, {
        baseline: index.snapshot(),
        batch,
        partial: { bytes: partialBytes, store: storePart },
        pace,
      });
      // Synced when it stored anything: the command may change any file once this answers. A scan
      // that found nothing new relies on what earlier synced scans stored, and need not wait for a flush.
      const commit =
        scan.fresh.size > 0 || partsStored ? ctx.store.transaction.bind(ctx.store) : ctx.store.relaxed.bind(ctx.store);
      commit(() => {
        batch.commit();
        index.replace(scan.current);
        alsoInTransaction();
      });
    } catch (e) {
      batch.discard();
      index.reload();
      throw e;
    }
    this.lastOpaque = scan.opaque;
    this.lastOverBudget = scan.overBudget;
    return scan;
  }

  /** The ignored folders the latest scan found over their budget: not protected, said so. */
  overBudget(): readonly OverBudget[] {
    return this.lastOverBudget;
  }

  /** The after scan: what the command changed becomes entries of its turn. */
  async after(turn: TurnContext, execId: string): Promise<ExecOutcome> {
    const exec = this.open.get(execId);
    if (!exec || exec.turnId !== turn.turnId)
      throw new BadRequestError(`no open command ${JSON.stringify(execId)} in this turn`, { execId });
    return this.scanning(async () => {
      const outcome = await this.attribute(
        turn,
        exec.execId,
        exec.snapshot,
        exec.opaque,
        exec.overBudget,
        exec.concurrent,
        false,
      );
      this.open.delete(execId);
      return outcome;
    });
  }

  /**
   * Turn end: every command still open gets its after scan, then one scan against the index
   * catches what a background process of the turn changed since (attributed to its last command).
   */
  async closeTurn(turn: TurnContext): Promise<void> {
    for (const execId of this.openIn(turn.turnId)) await this.after(turn, execId);
    // Only against a whole index that the last command's own before scan brought to the disk:
    // otherwise what the person changed before that command would pass for the turn's.
    const last = this.lastCommand(turn.turnId);
    if (!last?.scanned || !this.index.complete) return;
    await this.scanning(async () => {
      const concurrent = [...this.open.values()].some((e) => e.sessionId !== turn.sessionId);
      await this.attribute(turn, last.execId, this.index.map(), this.lastOpaque, this.lastOverBudget, concurrent, true);
    });
  }

  /** After a crash: a turn's commands left open are scanned against the index the before scan persisted. */
  async recoverTurn(turn: TurnContext): Promise<void> {
    const last = this.lastCommand(turn.turnId);
    // A before scan the crash cut short left the index partial: what the command did is unknown, and said so (never ended).
    if (!last || last.endedAt !== null || !last.scanned || !this.index.complete) return;
    await this.scanning(() => this.attribute(turn, last.execId, this.index.map(), new Map(), [], false, true));
  }

  /** A new command of the turn (its text bounded), recorded before its before scan runs: its execId. */
  begin(turnId: string, tool: string, command: string): string {
    const execId = newId('x_');
    const at = new Date(this.ctx.now()).toISOString();
    this.ctx.store.relaxed(() => this.ctx.store.commands.add(turnId, { execId, tool, command, at }));
    return execId;
  }

  /** A command of the turn as recorded (an exec-end for one already scanned answers from it). */
  recorded(turnId: string, execId: string): StoredCommand | undefined {
    return this.ctx.store.commands.get(turnId, execId);
  }

  private lastCommand(turnId: string): StoredCommand | undefined {
    return this.ctx.store.commands.last(turnId);
  }

  /**
   * Scans against `baseline`, records each changed path as an entry of `execId` (its before-state
   * the baseline's) and brings the index to the disk, all in one synced transaction. `settling`:
   * paths the turn already recorded are left to it (their earliest state is kept already).
   */
  private async attribute(
    turn: TurnContext,
    execId: string,
    baseline: ReadonlyMap<string, IndexEntry>,
    opaqueBefore: Map<string, string>,
    overBudgetBefore: readonly OverBudget[],
    concurrent: boolean,
    settling: boolean,
  ): Promise<ExecOutcome> {
    const { ctx, index } = this;
    const batch = ctx.contents.batch();
    let scan: ScanResult;
    try {
      scan = await scanTree(ctx, { baseline, batch, leaveOut: overBudgetBefore });
    } catch (e) {
      batch.discard();
      throw e;
    }
    // Below a folder one of the two scans could not list, a path's state is unknown on one side:
    // never attributed (its absence would read as "created" or "deleted"), said so instead.
    const blind = new Set<string>();
    for (const entries of [baseline, scan.current]) {
      for (const [uri, e] of entries) if (e.type === 'dir' && e.skipped === 'unreadable') blind.add(uri);
    }
    const changed = scan.changed.filter((uri) => !(settling && turn.captured.has(uri)) && !isBelowAny(uri, blind));
    const skipped: ExecSkipped[] = [...blind].map((uri) => ({ uri, reason: 'unreadable' as const }));
    /** URIs `skipped` names so far, whatever the reason. */
    const named = new Set(blind);
    const changes: ExecChange[] = [];
    // A path the command moved is recorded with where it went, as one entry: not a delete and a create.
    const moves = new Map(findMoves(changed, baseline, scan.current).map((m) => [m.from, m]));
    const movedTo = new Set([...moves.values()].map((m) => m.to));
    for (const uri of changed) {
      const before = baseline.get(uri);
      const after = scan.current.get(uri);
      // As the turn will say (commit.ts): the original not kept, or what is there now cannot be
      // captured before a rollback changes it. A special file now there is replaced, not skipped.
      const notKept = before?.skipped ?? (after?.type === 'special' ? null : (after?.skipped ?? null));
      if (notKept && !named.has(uri)) {
        skipped.push({ uri, reason: notKept });
        named.add(uri);
      }
      if (movedTo.has(uri)) continue;
      const change: ExecChange = { uri, before: stateOf(before), skipped: before?.skipped ?? undefined };
      const move = moves.get(uri);
      if (move) {
        const toBefore = baseline.get(move.to);
        change.moved = {
          op: move.op,
          to: move.to,
          toBefore: stateOf(toBefore),
          toSkipped: toBefore?.skipped ?? undefined,
        };
      }
      changes.push(change);
    }
    for (const uri of scan.unreadable) {
      // A special file is not unreadable: it has no content, and is told as what it is.
      if (scan.current.get(uri)?.type === 'special') continue;
      if (!named.has(uri)) {
        skipped.push({ uri, reason: 'unreadable' });
        named.add(uri);
      }
    }
    for (const [name, sig] of scan.opaque)
      if (opaqueBefore.get(name) !== sig) skipped.push({ uri: name, reason: 'unreadable' });
    for (const name of opaqueBefore.keys())
      if (!scan.opaque.has(name)) skipped.push({ uri: name, reason: 'unreadable' });
    if (concurrent) for (const uri of changed) skipped.push({ uri, reason: 'concurrent' });
    for (const { uri, files, bytes } of scan.overBudget) skipped.push({ uri, reason: 'over-budget', files, bytes });
    try {
      recordExecChanges(ctx, turn, execId, batch, changes, () => {
        index.replace(scan.current);
        this.updateCommand(turn.turnId, execId, (c) => {
          c.endedAt ??= new Date(ctx.now()).toISOString();
          c.changed = [...new Set([...(c.changed ?? []), ...changed])];
          // Each (reason, URI) once, where it first appears.
          const unique = new Map<string, ExecSkipped>();
          for (const list of [c.skipped ?? [], skipped]) {
            for (const s of list) {
              const key = `${s.reason}\0${s.uri}`;
              if (!unique.has(key)) unique.set(key, s);
            }
          }
          if (unique.size > 0) c.skipped = [...unique.values()];
        });
      });
    } catch (e) {
      index.reload();
      throw e;
    }
    this.lastOpaque = scan.opaque;
    this.lastOverBudget = scan.overBudget;
    return { changed, skipped };
  }

  private updateCommand(turnId: string, execId: string, change: (c: StoredCommand) => void): void {
    const command = this.ctx.store.commands.get(turnId, execId);
    if (!command) return;
    change(command);
    this.ctx.store.commands.update(turnId, execId, command);
  }
}
