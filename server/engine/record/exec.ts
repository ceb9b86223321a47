// Commands the engine cannot see into (a shell, a code runner, an MCP tool) are undone by
// scanning around them. The before scan brings the workspace index up to date with the disk
// and stores every tracked file's current content, durably, before the command may run; it
// keeps a snapshot of the index as the command's baseline. The after scan compares the disk
// with that snapshot: every path whose state changed becomes an `exec` entry of the turn, with
// the snapshot's state as its before-state. A turn end runs the after scan of every command
// still open, then one more scan for what a background process changed since.
// Scans run one at a time (the index is one); commands of two sessions open at once are
// attributed to both turns and said so (`concurrent`).
// With a filesystem watcher, a turn's start and end are still scanned in full, but a command's
// before and after scans look only at the paths the watcher named since the last scan: a path
// it missed (an mmap write) is found by the next full scan, so it may move to another command
// of the turn, never out of it. Whenever the watcher cannot tell (it overflowed, failed or
// restarted), or a scan failed half-way, the next scan is a full one.
import path from 'node:path';
import type { ExecSkipped, ExecUnseenOutcome, ExecUnseenReason, WatcherStatus } from '../../protocol.js';
import type { ContentBatch } from '../content/contents.js';
import type { StoredCommand } from '../db/commands.js';
import { type CaptureDeps, type ExecChange, recordExecChanges } from './capture.js';
import { findMoves } from './exec-moves.js';
import type { TurnContext } from '../context.js';
import type { Store } from '../db/store.js';
import { BadRequestError } from '../errors.js';
import { KeyedQueue } from '../queue.js';
import { newId } from '../ids.js';
import { type ScanDeps, type ScanOptions, type ScanResult, scanTree } from './scan.js';
import { isBelowAny } from '../paths/uri.js';
import type { OverBudget } from './ignored-folders.js';
import { type IndexEntry, WorkspaceIndex, stateOf } from './workspace-index.js';
import { type DirtyRoots, dirtyRoots } from './watch/dirty-tree.js';
import type { LayeredMap } from './watch/layered-map.js';
import type { DirtyPath, TreeWatcher } from './watch/tree-watcher.js';
import { missedBy } from './watch/misses.js';
import { outsideRulesSignature, StatVerifier } from './verify/stat-verify.js';

/** A before scan stores what it has read every this many bytes, so its memory stays bounded. */
const PARTIAL_COMMIT_BYTES = 8 << 20;
/**
 * The background build stores smaller parts: each is one synchronous transaction, during which
 * a hook's request waits, and a stopped build resumes from the last one.
 */
const BUILD_PARTIAL_COMMIT_BYTES = 1 << 20;
/**
 * A scan that has stored this much hands the WAL's checkpoints to a thread of their own: a
 * first build on a large tree, not a command's few files (starting the thread costs a few ms).
 */
const OFFLOAD_CHECKPOINTS_FROM = 32 << 20;
/**
 * Entries a long scan reads afresh between two of its stores ahead of its last transaction: each
 * store rewrites the pages the new rows land on, so fewer, larger parts cost less in all
 * (`npm run bench` item 16 weighs this against the longest pause).
 */
const AHEAD_ENTRIES = 10_000;
/**
 * A full scan of an index this large is verified on the stat threads first (verify/), then
 * looks only at what differs; a smaller one is walked (a few milliseconds, less than the hand-off).
 */
const VERIFY_BY_STAT_FROM = 2_000;

/** The command a turn's changes made while no service ran are recorded under: which command made them is unknown. */
export const GAP_TOOL = 'gap';
const GAP_COMMAND = '(changed while turnback was not running: the command is unknown)';
const LOST_COMMAND =
  '(changed between two commands by one whose start turnback never heard of: the command is unknown)';
/** The gap an end without its start is recorded under: the command its end names. */
const unseenCommand = (tool: string, command: string) =>
  `${command ? `${tool}: ${command}` : tool} (its start never reached turnback: all that changed since the turn's previous scan)`;

/** What an end whose start never reached turnback came to (ExecScans.unseen). */
export type UnseenResult =
  | (ExecOutcome & { outcome: 'recorded'; execId: string })
  | { outcome: Exclude<ExecUnseenOutcome, 'recorded' | 'not-recorded'> }
  | { outcome: 'not-recorded'; reason: ExecUnseenReason };

interface OpenExec {
  execId: string;
  sessionId: string;
  turnId: string;
  /** The index as the before scan left it (what the command found), kept while later scans move the index on. */
  baseline: { map: LayeredMap; stale(): boolean; release(): void };
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

/**
 * What the command scans use: what a scan and a capture use, the session queues (a turn's start
 * scan runs in its session's), the log and the clock, and the whole store, whose index, commands
 * and transactions they drive.
 */
export interface ExecDeps extends ScanDeps, CaptureDeps {
  store: Store;
  queue: KeyedQueue;
  log(line: string): void;
  now(): number;
}

export class ExecScans {
  readonly index: WorkspaceIndex;
  private readonly open = new Map<string, OpenExec>();
  /** Open commands a crash left open, opened again by recovery (recoverTurn). */
  private readonly reopened = new Set<string>();
  /** One scan at a time, whichever session asks. */
  private readonly lock = new KeyedQueue();
  /** Non-UTF-8 names as the last scan saw them (the index cannot hold them). */
  private lastOpaque = new Map<string, string>();
  /** Ignored folders the last scan left out over their budget (not protected). */
  private lastOverBudget: OverBudget[] = [];
  /** Whether the index and what the watcher names since its last answer tell the disk (the last scan took that answer and succeeded). */
  private continuous = false;
  /** Turns whose start was scanned in full while the watcher ran: their commands may scan dirty paths only. */
  private readonly startScanned = new Set<string>();
  /** The last command of each turn whose after scan is done (a later before scan may hand it what it missed). */
  private readonly lastEnded = new Map<string, string>();
  /**
   * The index's mark (`moves`) as each turn's own last scan left it (its start scan, a command's
   * after scan): while no other scan moved it, what differs on disk is the turn's, or the person's.
   */
  private readonly ownScan = new Map<string, number>();
  /** A turn-start scan running in the background. */
  private background: Promise<void> = Promise.resolve();
  /** The rules outside every `.gitignore` as the last scan found them (null: no scan yet). */
  private lastOutsideRules: string | null = null;
  private readonly verifier = new StatVerifier();
  /** Contents an after scan stored ahead of its record (storeAhead): held from the sweep until that record is stored. */
  private readonly storedAhead = new Set<string>();
  /** What the watcher named since the last scan that took its answer (null: it could not tell). */
  private named: DirtyPath[] | null = [];
  /** What the last scan took, when the index and it told the disk (a full scan then checks it for misses). */
  private lastNamed: DirtyPath[] | null = null;
  /** Changes full scans found that the watcher should have named. */
  private misses = 0;

  constructor(
    private readonly ctx: ExecDeps,
    private readonly watcher: TreeWatcher | null = null,
    /** Index size from which a full scan is verified by stat on threads (tests lower it). */
    private readonly verifyFrom = VERIFY_BY_STAT_FROM,
  ) {
    this.index = new WorkspaceIndex(ctx.store);
  }

  /**
   * A full scan's plan: the paths that differ from the index, found on the stat threads (the
   * scan then looks at those only), or null to walk the whole tree: the index is small, partial
   * or not the baseline, a name no URI can name was seen, the rules outside the `.gitignore`
   * files moved, the filesystem seam is watched (fault and crash tests count each call), or the
   * threads failed.
   */
  private async verifiedByStat(baselineIsIndex: boolean): Promise<DirtyRoots | null> {
    const rules = outsideRulesSignature(this.ctx.roots.list());
    const sameRules = rules === this.lastOutsideRules;
    this.lastOutsideRules = rules;
    const { index } = this;
    if (!sameRules || !baselineIsIndex || this.ctx.fs.beforeOp || !index.complete || this.lastOpaque.size > 0)
      return null;
    if (index.map().size < this.verifyFrom) return null;
    const paths = await this.verifier.dirty(this.ctx, index);
    return paths && dirtyRoots(this.ctx.roots.list(), paths);
  }

  /** Whether per-command scans follow the watcher, or why they are full ones. */
  watcherStatus(): WatcherStatus {
    if (!this.watcher) return { state: 'none' };
    const { misses } = this;
    const reason = this.watcher.unavailable();
    if (reason !== null) return { state: 'unavailable', reason, misses };
    const degraded = this.watcher.degraded?.() ?? null;
    return degraded === null ? { state: 'watching', misses } : { state: 'degraded', reason: degraded, misses };
  }

  /** A barrier: what the watcher named since is added to what the next scan takes. */
  private async observe(): Promise<void> {
    const taken = await this.watcher!.take();
    if (taken === null) this.named = null;
    else this.named?.push(...taken);
  }

  /**
   * After a full scan (or a catch-up's) against `before`: each change it found that the watcher
   * did not name (in `named`, or since) is a miss: counted, logged with its path, its folder
   * watched afresh. Only when the watcher told everything since the index was last whole.
   */
  private async countMisses(
    where: string,
    named: DirtyPath[] | null,
    changed: readonly string[],
    before: ReadonlyMap<string, IndexEntry>,
    after: ReadonlyMap<string, IndexEntry>,
  ): Promise<void> {
    if (!this.watcher || named === null || changed.length === 0) return;
    await this.observe();
    if (this.named === null) return;
    const missed = missedBy(this.ctx.roots, [...named, ...this.named], changed, before, after);
    if (missed.length === 0) return;
    this.misses += missed.length;
    const places = new Set<string>();
    for (const { uri, reason } of missed.slice(0, 20))
      this.ctx.log(
        `watcher miss: ${uri} ${reason}, found by ${where} but named by no event; its folder is watched afresh`,
      );
    if (missed.length > 20) this.ctx.log(`watcher miss: ${missed.length - 20} more found by ${where}`);
    for (const { abs } of missed) places.add(path.dirname(abs));
    for (const place of places) this.watcher.rewatch?.(place);
  }

  /**
   * The paths to look at in place of the whole tree, or null for a full scan. Always asks the
   * watcher (so that what it names next starts here); `continuous` is set again once the scan
   * that follows succeeds.
   */
  private async dirtySince(turnId: string | null): Promise<DirtyRoots | null> {
    if (!this.watcher) return null;
    await this.observe();
    const taken = this.named;
    this.named = [];
    const continuous = this.continuous;
    this.continuous = false;
    this.lastNamed = continuous && this.index.complete && this.lastOpaque.size === 0 ? taken : null;
    if (!taken || !continuous || !this.index.complete || this.lastOpaque.size > 0) return null;
    if (turnId === null || !this.startScanned.has(turnId)) return null;
    return dirtyRoots(this.ctx.roots.list(), taken);
  }

  /** A scan that took the watcher's answer, done: what the watcher names next is all that changes the disk from the index. */
  private followed(): void {
    if (this.watcher) this.continuous = true;
  }

  /**
   * With a watcher: a turn starts with a full scan, in the background (the agent thinks before
   * its first command). It runs next in the session's queue, so the session's own writes and
   * commands wait for it: a write's temp file is never seen by it half-way.
   */
  turnStarted(sessionId: string, turnId: string): void {
    if (!this.watcher) return;
    this.background = this.ctx.queue
      .run(sessionId, () =>
        this.scanning(async () => {
          await this.dirtySince(null);
          const named = this.lastNamed;
          const before = this.index.view();
          try {
            const scan = await this.scanIntoIndex(() => undefined);
            this.followed();
            this.startScanned.add(turnId);
            this.scannedBy(turnId);
            await this.countMisses(`the turn's start scan`, named, scan.changed, before.map, scan.current);
          } finally {
            before.release();
          }
        }),
      )
      .catch((e: unknown) => {
        // The first command's before scan is then a full one, and fails to the caller if the cause remains.
        this.ctx.log(`the turn's start scan failed: ${(e as Error).message}`);
      });
  }

  /**
   * Before a capture of `uris` in a turn whose commands ran: a change a command made there that
   * its scans missed (an event the watcher dropped or has not handed over) is given to the turn's
   * last command first, so the capture cannot take the command's result for the path's state at
   * the turn's start (a folder's paths too, even when the turn holds the folder). Without a
   * watcher the after scans saw everything: nothing to do.
   */
  async catchUp(turn: TurnContext, uris: string[]): Promise<void> {
    await this.endReopened(turn);
    const previous = this.lastEnded.get(turn.turnId);
    if (!this.watcher || !previous || this.openIn(turn.turnId).length > 0) return;
    const index = this.index.complete ? this.index.map() : null;
    const paths: { abs: string; tree: boolean }[] = [];
    for (const uri of uris) {
      const found = this.ctx.roots.absOf(uri);
      if (!found) continue;
      // A folder the turn holds already (in the index, or on disk: a command may have made it
      // one unseen) is looked into all the same: what a command put below it unseen is not the
      // turn's yet, and a move or delete of the folder would take it for what was there when
      // the turn began.
      const folder = async () =>
        index?.get(uri)?.type === 'dir' ||
        ((await this.ctx.fs.lstatOrNull(found.abs).catch(() => null))?.isDirectory() ?? false);
      if (!turn.captured.has(uri) || (await folder())) paths.push({ abs: found.abs, tree: true });
      // A folder on the way that is gone (a command removed it unseen) is the command's too: the
      // capture is about to record it as made by the turn.
      const gone = await this.topmostMissingFolder(found.root.real, found.abs);
      if (gone) paths.push({ abs: gone, tree: true });
    }
    if (paths.length === 0) return;
    await this.scanning(async () => {
      const dirty = dirtyRoots(this.ctx.roots.list(), paths);
      if (!dirty || !this.index.complete) return;
      // Looked at first on its own: a capture whose paths hold what the index says costs no transaction.
      const batch = this.ctx.contents.batch();
      const options = { baseline: this.index.map(), batch, dirty: this.dirtyOptions(dirty) };
      const look = await scanTree(this.ctx, options).finally(() => batch.discard());
      if (look.changed.length === 0) return;
      // Since the last scan took the watcher's answer, every change is in what it named since.
      if (this.continuous) await this.countMisses('a capture', [], look.changed, this.index.map(), look.current);
      const concurrent = this.othersOpen(turn.sessionId).length > 0;
      await this.attribute(turn, previous, this.index.map(), this.lastOpaque, [], concurrent, true, dirty);
      this.scannedBy(turn.turnId);
    });
  }

  /** The highest missing folder between `abs` and its root (the capture would make it), or null. */
  private async topmostMissingFolder(root: string, abs: string): Promise<string | null> {
    let gone: string | null = null;
    for (let dir = path.dirname(abs); dir.length > root.length; dir = path.dirname(dir)) {
      if ((await this.ctx.fs.lstatOrNull(dir).catch(() => null)) !== null) break;
      gone = dir;
    }
    return gone;
  }

  /** Resolves once the turn-start scan running in the background (if any) is done. */
  idle(): Promise<void> {
    return this.background;
  }

  /** Waits for background scans and stops the watcher. */
  async close(): Promise<void> {
    await this.background;
    await this.scanning(async () => undefined);
    await this.watcher?.close();
  }

  private scanning<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.run('scan', task);
  }

  /** Contents only an open command's snapshot, or an after scan not yet recorded, names: the sweep must keep them. */
  heldHashes(): Set<string> {
    const held = new Set<string>(this.storedAhead);
    // What a baseline shares with the index is held by the index; only what changed since is the baseline's own.
    for (const exec of this.open.values())
      for (const entry of exec.baseline.map.layer.values()) if (entry?.hash) held.add(entry.hash);
    return held;
  }

  /** Commands of other sessions open now: a scan meanwhile is concurrent with them. */
  private othersOpen(sessionId: string): OpenExec[] {
    return [...this.open.values()].filter((e) => e.sessionId !== sessionId);
  }

  openIn(turnId: string): string[] {
    return [...this.open.values()].filter((e) => e.turnId === turnId).map((e) => e.execId);
  }

  /**
   * A command a crash left open and recovery opened again is ended before the turn records
   * anything else: the service that heard of its start is gone, so no end of it will match.
   */
  private async endReopened(turn: TurnContext): Promise<void> {
    for (const execId of this.openIn(turn.turnId)) if (this.reopened.has(execId)) await this.after(turn, execId);
  }

  /**
   * A new command of the turn and its before scan: the index made current, every content stored
   * and synced, a snapshot kept. Answers the command's execId.
   */
  async before(turn: TurnContext, tool: string, command: string): Promise<string> {
    await this.endReopened(turn);
    return this.scanning(async () => {
      const dirty = await this.dirtySince(turn.turnId);
      let execId = '';
      const scanned = () => this.markScanned(turn.turnId, execId);
      const previous = this.lastEnded.get(turn.turnId);
      const idle = this.openIn(turn.turnId).length === 0;
      let scan: ScanResult;
      if (idle && this.index.complete && !this.watcher && previous !== undefined) {
        // The index told the disk when the turn's previous command ended: what changed since, and
        // no file tool recorded, came from a command whose start never reached turnback (its hook
        // lost or timed out). It is the turn's, under a command of tool `gap` recorded before this
        // one, never taken for the state this command found. (With a watcher, the previous command
        // takes it below.) Before the turn's first command it is the state that command found.
        execId = newId('x_');
        const gapId = newId('x_');
        const concurrent = this.othersOpen(turn.sessionId).length > 0;
        const begun = () => {
          this.add(turn.turnId, execId, tool, command);
          scanned();
        };
        const gap = () => this.add(turn.turnId, gapId, GAP_TOOL, LOST_COMMAND);
        const map = this.index.map();
        scan = (await this.attribute(turn, gapId, map, this.lastOpaque, [], concurrent, true, dirty, begun, gap)).scan;
        this.followed();
        return this.opened(turn, execId, scan);
      }
      // Recorded before its scan: a crash during the scan leaves a command said never to have ended.
      execId = this.begin(turn.turnId, tool, command);
      if (this.watcher && previous && idle) {
        // What changed since the previous command's after scan may be that command's own (an event
        // the watcher dropped or handed over late, or it failed since and this scan is a full one):
        // the before scan hands it to that command, as the turn end does with what a command left
        // running changes, so no change leaves the turn.
        const concurrent = this.othersOpen(turn.sessionId).length > 0;
        const map = this.index.map();
        scan = (await this.attribute(turn, previous, map, this.lastOpaque, [], concurrent, true, dirty, scanned)).scan;
      } else scan = await this.scanIntoIndex(scanned, dirty);
      this.followed();
      if (!dirty && this.watcher) this.startScanned.add(turn.turnId);
      return this.opened(turn, execId, scan);
    });
  }

  /** The command is open from here, against the index its before scan left: its execId. */
  private opened(turn: TurnContext, execId: string, scan: ScanResult): string {
    const others = this.othersOpen(turn.sessionId);
    for (const other of others) other.concurrent = true;
    this.open.set(execId, {
      // What the scan found is what the index now holds: the command's baseline, never changed after.
      execId,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      baseline: this.index.view(),
      opaque: scan.opaque,
      overBudget: scan.overBudget,
      concurrent: others.length > 0,
    });
    return execId;
  }

  /**
   * The index built in the background (index-build.ts): the before scan's own scan, paced by
   * `pace`, in the same queue, so a command's before scan that comes meanwhile waits for it and
   * then reads only what changed since.
   */
  async build(pace: NonNullable<ScanOptions['pace']>): Promise<void> {
    await this.scanning(() =>
      this.scanIntoIndex(() => undefined, null, { pace, partialBytes: BUILD_PARTIAL_COMMIT_BYTES }),
    );
  }

  /** Brings the index to the disk, storing as it goes; the last store is synced. */
  private async scanIntoIndex(
    alsoInTransaction: () => void,
    dirty: DirtyRoots | null = null,
    { pace, partialBytes = PARTIAL_COMMIT_BYTES }: { pace?: ScanOptions['pace']; partialBytes?: number } = {},
  ): Promise<ScanResult> {
    const { ctx, index } = this;
    // One batch throughout: each partial store empties it, and the scan keeps on filling it.
    const batch = ctx.contents.batch();
    let partsStored = false;
    let bytesStored = 0;
    const offload: { end: (() => Promise<void>) | null } = { end: null };
    const storePart = (fresh: Map<string, IndexEntry>, bytes: number) => {
      // Only a part that stored contents makes the last commit a synced one: entries whose stat
      // alone moved (a racy file read again to its content, a folder) need no flush.
      if (batch.size > 0) {
        partsStored = true;
        bytesStored += bytes;
        // A scan storing this much checkpoints from a thread beside it (db/wal-checkpointer.ts).
        if (bytesStored >= OFFLOAD_CHECKPOINTS_FROM) offload.end ??= ctx.store.offloadCheckpoints();
      }
      ctx.store.relaxed(() => {
        batch.commit();
        index.updatePart(fresh);
      });
    };
    let scan: ScanResult;
    // The background build reads what it must anyway: it walks the tree.
    if (pace) this.lastOutsideRules = outsideRulesSignature(ctx.roots.list());
    else dirty ??= await this.verifiedByStat(true);
    // Copy-on-write: the partial stores change the index while the scan still reads its baseline.
    const baseline = index.view();
    try {
      scan = await scanTree(ctx, {
        baseline: baseline.map,
        batch,
        partial: { bytes: partialBytes, entries: AHEAD_ENTRIES, store: storePart },
        dirty: dirty ? this.dirtyOptions(dirty) : undefined,
        pace,
      });
      // Synced when it stored any content: the command may change any file once this answers. A
      // scan that stored none (nothing new, or only stats moved: a racy file read again to the
      // content it had, a folder) relies on what earlier synced scans stored, and need not wait
      // for a flush: lost in a crash, it takes every later commit with it (the log is written in
      // order), the command's mark of being scanned too, so nothing is attributed against it.
      const commit =
        batch.size > 0 || partsStored ? ctx.store.transaction.bind(ctx.store) : ctx.store.relaxed.bind(ctx.store);
      commit(() => {
        batch.commit();
        if (scan.delta) index.apply(scan.delta);
        else index.replace(scan.current);
        alsoInTransaction();
      });
    } catch (e) {
      batch.discard();
      index.reload();
      throw e;
    } finally {
      baseline.release();
      await offload.end?.();
    }
    this.lastOpaque = scan.opaque;
    this.lastOverBudget = scan.overBudget;
    return scan;
  }

  private dirtyOptions(roots: DirtyRoots): NonNullable<Parameters<typeof scanTree>[1]['dirty']> {
    const { index } = this;
    return {
      roots,
      below: (uri) => index.below(uri),
      unreadable: index.unreadable(),
      overBudget: this.lastOverBudget,
    };
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
      const dirty = await this.dirtySince(turn.turnId);
      // Another scan moved the index on since this command's before scan: the dirty paths no longer tell its change.
      const useDirty = dirty !== null && !exec.baseline.stale();
      // A baseline no scan moved away from is the index itself: a full scan against it may then be verified by stat.
      const baseline = useDirty || exec.baseline.stale() ? exec.baseline.map : this.index.map();
      const { changed, skipped } = await this.attribute(
        turn,
        exec.execId,
        baseline,
        exec.opaque,
        exec.overBudget,
        exec.concurrent,
        false,
        useDirty ? dirty : null,
      );
      this.followed();
      exec.baseline.release();
      this.open.delete(execId);
      this.reopened.delete(execId);
      this.lastEnded.set(turn.turnId, execId);
      this.scannedBy(turn.turnId);
      return { changed, skipped };
    });
  }

  /**
   * Turn end: every command still open gets its after scan, then one scan against the index
   * catches what a background process of the turn changed since (attributed to its last command).
   */
  async closeTurn(turn: TurnContext): Promise<void> {
    for (const execId of this.openIn(turn.turnId)) await this.after(turn, execId);
    this.ownScan.delete(turn.turnId);
    // Only against a whole index that the last command's own before scan brought to the disk:
    // otherwise what the person changed before that command would pass for the turn's.
    const last = this.lastCommand(turn.turnId);
    if (!last?.scanned || !this.index.complete) return;
    await this.scanning(async () => {
      // The turn's end is scanned in full, whatever the watcher says.
      await this.dirtySince(null);
      const named = this.lastNamed;
      const concurrent = this.othersOpen(turn.sessionId).length > 0;
      const before = this.index.view();
      try {
        const baseline = this.index.map();
        const { scan } = await this.attribute(
          turn,
          last.execId,
          baseline,
          this.lastOpaque,
          this.lastOverBudget,
          concurrent,
          true,
        );
        this.followed();
        await this.countMisses(`the turn's end scan`, named, scan.changed, before.map, scan.current);
      } finally {
        before.release();
      }
    });
    this.startScanned.delete(turn.turnId);
    this.lastEnded.delete(turn.turnId);
  }

  /**
   * After a crash: a turn's command left open is open again, against the index its before scan
   * persisted. When its last command had ended, what changed since that after scan (while no
   * service ran) came from a command turnback never saw: it is the turn's all the same, under a
   * command of its own, tool `gap`.
   */
  async recoverTurn(turn: TurnContext): Promise<void> {
    const last = this.lastCommand(turn.turnId);
    // A before scan the crash cut short left the index partial: what the command did is unknown, and said so (never ended).
    if (!last || !last.scanned || !this.index.complete) return;
    if (last.endedAt === null) {
      // The turn goes on, and the command may still run: open again, against the index its
      // before scan persisted, its after scan (its end, the next event, the turn's end) sees all it did.
      await this.scanning(async () => {
        this.reopened.add(last.execId);
        this.open.set(last.execId, {
          execId: last.execId,
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          baseline: this.index.view(),
          opaque: new Map(),
          overBudget: [],
          concurrent: false,
        });
      });
      return;
    }
    await this.scanning(async () => {
      // Looked at first on its own: a restart with nothing changed meanwhile adds no command.
      const batch = this.ctx.contents.batch();
      const look = await scanTree(this.ctx, { baseline: this.index.map(), batch }).finally(() => batch.discard());
      // The index tells the disk as the turn left it: the next before scan hands on what changes after.
      this.lastEnded.set(turn.turnId, last.execId);
      this.scannedBy(turn.turnId);
      if (!look.changed.some((uri) => !turn.captured.has(uri))) return;
      const gapId = this.begin(turn.turnId, GAP_TOOL, GAP_COMMAND);
      const scanned = () => this.markScanned(turn.turnId, gapId);
      await this.attribute(turn, gapId, this.index.map(), new Map(), [], false, true, null, scanned);
      this.scannedBy(turn.turnId);
    });
  }

  /** The index now tells the disk as the turn's own scan found it. */
  private scannedBy(turnId: string): void {
    this.ownScan.set(turnId, this.index.moves);
  }

  /**
   * An end came for a command whose start never reached turnback (its hook lost, timed out, or
   * sent while no service ran): the command ran unseen. What changed since the turn's own last
   * scan (its start scan, or its previous command's after scan) and no file tool recorded is the
   * turn's, under a command of tool `gap` naming it. Only while the index is still what that scan
   * left: otherwise the command's change cannot be told from the person's, and nothing is guessed.
   */
  async unseen(turn: TurnContext, tool: string, command: string): Promise<UnseenResult> {
    await this.endReopened(turn);
    return this.scanning(async () => {
      // That command's after scan will find it, as it finds what any command beside it changes.
      if (this.openIn(turn.turnId).length > 0) return { outcome: 'open' };
      const own = this.ownScan.get(turn.turnId);
      const reason: ExecUnseenReason | null = !this.index.complete
        ? 'index-partial'
        : own === undefined
          ? 'no-start-scan'
          : own !== this.index.moves
            ? 'index-moved'
            : null;
      if (reason !== null) {
        this.ctx.log(`a command whose start never reached turnback (${tool}) is not recorded: ${reason}`);
        return { outcome: 'not-recorded', reason };
      }
      const dirty = await this.dirtySince(turn.turnId);
      const gapId = newId('x_');
      const concurrent = this.othersOpen(turn.sessionId).length > 0;
      const scanned = () => this.markScanned(turn.turnId, gapId);
      const gap = () => this.add(turn.turnId, gapId, GAP_TOOL, unseenCommand(tool, command));
      const map = this.index.map();
      const found = await this.attribute(turn, gapId, map, this.lastOpaque, [], concurrent, true, dirty, scanned, gap);
      this.followed();
      this.scannedBy(turn.turnId);
      if (found.changed.length === 0) return { outcome: 'unchanged' };
      // Ended like any command: the turn's end and a later before scan hand what follows to it.
      this.lastEnded.set(turn.turnId, gapId);
      return { outcome: 'recorded', execId: gapId, changed: found.changed, skipped: found.skipped };
    });
  }

  /** A new command of the turn (its text bounded), recorded before its before scan runs: its execId. */
  begin(turnId: string, tool: string, command: string): string {
    const execId = newId('x_');
    this.ctx.store.relaxed(() => this.add(turnId, execId, tool, command));
    return execId;
  }

  private add(turnId: string, execId: string, tool: string, command: string): void {
    this.ctx.store.commands.add(turnId, { execId, tool, command, at: new Date(this.ctx.now()).toISOString() });
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
    dirty: DirtyRoots | null = null,
    alsoInTransaction: () => void = () => undefined,
    /** Records `execId`'s command first, when it changed anything (a gap's). */
    recordCommand?: () => void,
  ): Promise<ExecOutcome & { scan: ScanResult }> {
    const { ctx, index } = this;
    dirty ??= await this.verifiedByStat(baseline === index.map());
    const batch = ctx.contents.batch();
    let scan: ScanResult;
    try {
      const only = dirty ? this.dirtyOptions(dirty) : undefined;
      // Contents go in ahead, in parts at the scan's pauses, held from the sweep until the
      // entries that name them are stored: the one transaction at the end stays shorter.
      const ahead = { bytes: PARTIAL_COMMIT_BYTES, entries: AHEAD_ENTRIES, store: () => this.storeAhead(batch) };
      scan = await scanTree(ctx, { baseline, batch, leaveOut: overBudgetBefore, dirty: only, partial: ahead });
    } catch (e) {
      batch.discard();
      this.storedAhead.clear();
      throw e;
    }
    // Below a folder one of the two scans could not list, a path's state is unknown on one side:
    // never attributed (its absence would read as "created" or "deleted"), said so instead.
    const blind = new Set<string>();
    const blindIn = (entries: Iterable<[string, IndexEntry | null | undefined]>) => {
      for (const [uri, e] of entries) if (e?.type === 'dir' && e.skipped === 'unreadable') blind.add(uri);
    };
    if (scan.delta) {
      // The baseline is the index here: its unreadable entries are known without a walk.
      blindIn([...index.unreadable()].map((uri) => [uri, baseline.get(uri)]));
      blindIn(scan.delta);
    } else {
      blindIn(baseline);
      blindIn(scan.current);
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
      await recordExecChanges(ctx, turn, execId, batch, changes, () => {
        if (scan.delta) index.apply(scan.delta);
        else index.replace(scan.current);
        if (recordCommand && changed.length > 0) recordCommand();
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
        alsoInTransaction();
      });
    } catch (e) {
      index.reload();
      throw e;
    } finally {
      this.storedAhead.clear();
    }
    this.lastOpaque = scan.opaque;
    this.lastOverBudget = scan.overBudget;
    return { changed, skipped, scan };
  }

  /** Stores what a scan's batch holds so far, not synced: nothing names it yet, so it is held until the record does. */
  private storeAhead(batch: ContentBatch): void {
    if (batch.size === 0) return;
    this.ctx.store.relaxed(() => {
      for (const hash of batch.commit()) this.storedAhead.add(hash);
    });
  }

  /** The command's before scan is done: a crash after it leaves the command open against that scan. */
  private markScanned(turnId: string, execId: string): void {
    this.updateCommand(turnId, execId, (c) => {
      c.scanned = true;
    });
  }

  private updateCommand(turnId: string, execId: string, change: (c: StoredCommand) => void): void {
    const command = this.ctx.store.commands.get(turnId, execId);
    if (!command) return;
    change(command);
    this.ctx.store.commands.update(turnId, execId, command);
  }
}
