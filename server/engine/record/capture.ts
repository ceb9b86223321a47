// Capture: before a mutation, record the states it is about to change as entries of the turn.
// The contents those states need and the entries are stored in one fully synced transaction
// (contents.ts), so once `recordOp` returns the capture is safe on disk and the mutation may run.
import path from 'node:path';
import type { EntryOp, SkipReason, State } from '../../protocol.js';
import type { ContentBatch, ContentStore } from '../content/contents.js';
import type { EngineLimits, ScanCatchUp, StoreTransactions, TurnContext } from '../context.js';
import type { Entries } from '../db/entries.js';
import type { Events } from '../events.js';
import type { EngineFs } from '../paths/fs.js';
import { exclusionOf, isExcluded } from '../paths/exclude.js';
import { TooLargeError } from '../errors.js';
import { inParallel } from '../parallel.js';
import type { Resolved, Root, Roots } from '../paths/roots.js';
import { STOP, walkTree } from '../paths/walk.js';
import { readState } from '../state/read-state.js';
import { type Seen, trustworthy, unchangedSince } from '../state/seen.js';
import { formatUri } from '../paths/uri.js';
import { timeSlicer } from './time-slice.js';

/**
 * What capturing touches: the disk under the roots, the contents, the turn's entries (written in
 * one transaction), the limits, the events; and the command scans, asked to catch up first.
 */
export interface CaptureDeps {
  fs: EngineFs;
  roots: Roots;
  contents: ContentStore;
  limits: EngineLimits;
  events: Events;
  store: StoreTransactions & { entries: Entries };
  scans?: ScanCatchUp;
}

interface Captured {
  state: State;
  skipped?: SkipReason;
}

interface Target {
  uri: string;
  abs: string;
  root: Root;
  segments: string[];
}

interface PendingEntry {
  op: EntryOp;
  from: Target;
  fromCaptured: Captured;
  to?: Target;
  toCaptured?: Captured;
  execId?: string;
}

/** What one capture records: its entries and the contents they need, stored together. */
class Recording {
  readonly entries: PendingEntry[] = [];
  readonly batch: ContentBatch;
  /** URIs whose content this recording already keeps (the earliest state wins). */
  private readonly keeping = new Set<string>();

  /** `force`: go ahead where an original cannot be kept (it is recorded as skipped); else refuse. */
  constructor(
    private readonly ctx: CaptureDeps,
    private readonly turn: TurnContext,
    batch?: ContentBatch,
    readonly force = true,
  ) {
    this.batch = batch ?? ctx.contents.batch();
  }

  /**
   * Reads a path's state and keeps its content, every time (the store keeps each content once):
   * the state before a later step of the turn is what undoing that one step puts back.
   */
  async state(target: Target): Promise<Captured> {
    if (!target.root.tracked) return { state: null };
    const first = !this.keeping.has(target.uri);
    if (first) this.keeping.add(target.uri);
    const read = await readState(this.ctx.fs, target.abs, {
      keep: first ? this.batch : undefined,
      maxFileSize: this.ctx.limits.maxFileSize,
      storeBudget: this.ctx.limits.storeBudget,
      excluded: isExcluded(this.ctx, target.segments),
    });
    if (read.state?.type === 'file') this.turn.contents.keep(read.state.hash, read.bytes);
    if ((read.skipped === 'too-large' || read.skipped === 'budget') && !this.force) {
      const size = read.state?.type === 'file' ? read.state.size : 0;
      const { maxFileSize, storeBudget } = this.ctx.limits;
      throw read.skipped === 'budget'
        ? new TooLargeError(target.uri, size, storeBudget!, 'file (larger than the store budget)', 'budget')
        : new TooLargeError(target.uri, size, maxFileSize);
    }
    return { state: read.state, skipped: read.skipped };
  }

  /**
   * The state a caller read a moment ago (a rollback's planning), taken as it is without reading
   * the file again when its content is kept already and the path still shows the very lstat it
   * was read by (and that lstat is not too close to the file's last change to tell): null when
   * it cannot be, and the path is read as usual.
   */
  async asSeen(target: Target, known: KnownState): Promise<Captured | null> {
    const { state, seen } = known;
    if (!target.root.tracked || state?.type !== 'file' || !state.hash || !seen) return null;
    if (!trustworthy(seen) && !known.checkedBeforeChange) return null;
    if (isExcluded(this.ctx, target.segments) || !this.ctx.contents.has(state.hash)) return null;
    const now = await this.ctx.fs.lstatOrNull(target.abs).catch(() => null);
    if (!unchangedSince(seen, now)) return null;
    this.keeping.add(target.uri);
    return { state };
  }

  /** A directory too large to record path by path: refused unless forced. */
  refuseTree(target: Target, files: number, bytes: number): void {
    if (this.force) return;
    const { maxDeleteFiles, maxDeleteBytes } = this.ctx.limits;
    if (files > maxDeleteFiles) throw new TooLargeError(target.uri, files, maxDeleteFiles, 'directory (files)');
    throw new TooLargeError(target.uri, bytes, maxDeleteBytes, 'directory (bytes)');
  }

  add(entry: PendingEntry): void {
    this.entries.push(entry);
  }

  /**
   * One synced transaction: the contents, their references, the entries (and what the caller
   * adds). With nothing recorded, the caller's part needs no flush of its own.
   */
  store(alsoInTransaction?: () => void): void {
    const { ctx, turn } = this;
    const nothingRecorded = this.entries.length === 0 && this.batch.size === 0;
    if (nothingRecorded && !alsoInTransaction) return;
    try {
      (nothingRecorded ? ctx.store.relaxed : ctx.store.transaction).call(ctx.store, () => {
        this.batch.commit();
        alsoInTransaction?.();
        for (const { op, from, fromCaptured, to, toCaptured, execId } of this.entries) {
          for (const captured of toCaptured ? [fromCaptured, toCaptured] : [fromCaptured]) {
            const s = captured.state;
            if (s?.type === 'file' && s.hash) ctx.store.entries.addRef(s.hash, turn.turnId);
          }
          turn.seq += 1;
          ctx.store.entries.insert({
            turnId: turn.turnId,
            seq: turn.seq,
            op,
            uri: from.uri,
            toUri: to?.uri ?? null,
            before: fromCaptured.state ?? null,
            after: null,
            toBefore: to ? (toCaptured?.state ?? null) : null,
            toAfter: null,
            skipped: fromCaptured.skipped ?? null,
            toSkipped: toCaptured?.skipped ?? null,
            execId: execId ?? null,
            stepId: execId ? null : (turn.step?.id ?? null),
            stepTitle: execId ? null : (turn.step?.title ?? null),
          });
        }
      });
    } catch (e) {
      turn.seq = ctx.store.entries.maxSeq(turn.turnId);
      this.batch.discard();
      throw e;
    }
    for (const { from, to } of this.entries) {
      for (const t of to ? [from, to] : [from]) {
        if (!t.root.tracked) continue;
        const isNew = !turn.captured.has(t.uri);
        turn.captured.add(t.uri);
        if (isNew) ctx.events.emit('captured', { sessionId: turn.sessionId, turnId: turn.turnId, uri: t.uri });
      }
    }
  }

  discard(): void {
    this.batch.discard();
  }
}

/** A path's state as read a moment ago, with the lstat it was read by (see `Recording.asSeen`). */
export interface KnownState {
  state: State;
  seen: Seen | null | undefined;
  /**
   * The caller checks the path still holds this very content right before it changes it (a
   * file written over in place reads it through the open file): taken as it is even when its
   * lstat is too close to its last change to tell a change since.
   */
  checkedBeforeChange?: boolean;
}

/** A path a command changed, with its state before the command; `moved` when the command moved it there. */
export interface ExecChange {
  uri: string;
  before: State;
  skipped?: SkipReason;
  /** Where the command moved this path to, and what was there before. */
  moved?: { op: 'rename' | 'move'; to: string; toBefore: State; toSkipped?: SkipReason };
}

function targetOfUri(ctx: CaptureDeps, uri: string): Target | null {
  const located = ctx.roots.absOf(uri);
  if (!located) return null;
  const rest = uri.slice(uri.indexOf(':/') + 2);
  return { uri, abs: located.abs, root: located.root, segments: rest === '' ? [] : rest.split('/') };
}

/**
 * Records what a command changed (its after scan): each path with its state before the command,
 * whose content the before scan already stored; a move as one rename or move entry naming both
 * ends. `alsoInTransaction` runs in the same synced transaction (the scan's contents, the index,
 * the command's record), so all of it or none lands.
 */
export async function recordExecChanges(
  ctx: CaptureDeps,
  turn: TurnContext,
  execId: string,
  batch: ContentBatch,
  changes: ExecChange[],
  alsoInTransaction: () => void,
): Promise<void> {
  const rec = new Recording(ctx, turn, batch);
  // Resolving 100,000 paths takes a while: the event loop gets its turns meanwhile.
  const slice = timeSlicer();
  for (const change of changes) {
    const pause = slice();
    if (pause) await pause;
    const from = targetOfUri(ctx, change.uri);
    if (!from) continue;
    const fromCaptured = { state: change.before, skipped: change.skipped };
    const to = change.moved && targetOfUri(ctx, change.moved.to);
    if (change.moved && to) {
      const toCaptured = { state: change.moved.toBefore, skipped: change.moved.toSkipped };
      rec.add({ op: change.moved.op, from, fromCaptured, to, toCaptured, execId });
    } else {
      rec.add({ op: 'exec', from, fromCaptured, execId });
    }
  }
  rec.store(alsoInTransaction);
}

/** Runs `collect` into a recording and stores it; nothing is stored when collecting fails. */
async function record(
  ctx: CaptureDeps,
  turn: TurnContext,
  collect: (rec: Recording) => Promise<void>,
  force = true,
  alsoInTransaction?: () => void,
): Promise<void> {
  const rec = new Recording(ctx, turn, undefined, force);
  try {
    await collect(rec);
  } catch (e) {
    rec.discard();
    throw e;
  }
  rec.store(alsoInTransaction);
}

/**
 * A rollback's turn records each path once (apply.ts records every path it will drive up front):
 * its later writes of that path add nothing its undo needs.
 */
function alreadyHeld(turn: TurnContext, t: Target): boolean {
  return turn.kind === 'rollback' && turn.captured.has(t.uri);
}

/**
 * Records the current state of many paths in one go: contents read side by side, then a single
 * transaction, before any of them is touched. Paths already recorded in the turn are left out.
 * `alsoInTransaction` runs in that same synced transaction.
 */
export async function recordStates(
  ctx: CaptureDeps,
  turn: TurnContext,
  items: { r: Resolved; op: EntryOp; known?: KnownState }[],
  alsoInTransaction?: () => void,
): Promise<void> {
  const todo = items.filter(({ r }) => r.root.tracked && !turn.captured.has(r.realUri));
  await record(
    ctx,
    turn,
    async (rec) => {
      const pending: PendingEntry[] = new Array(todo.length);
      await inParallel(todo, async ({ r, op, known }, i) => {
        const from = targetOf(r);
        const fromCaptured = (known && (await rec.asSeen(from, known))) ?? (await rec.state(from));
        pending[i] = { op, from, fromCaptured };
      });
      for (const p of pending) rec.add(p);
    },
    true,
    alsoInTransaction,
  );
}

/** Entries name where a path really is, so rollback never has to follow a link. */
function targetOf(r: Resolved): Target {
  return { uri: r.realUri, abs: r.abs, root: r.root, segments: r.realSegments };
}

function child(t: Target, name: string): Target {
  const segments = [...t.segments, name];
  return { uri: formatUri(t.root.name, segments), abs: path.join(t.abs, name), root: t.root, segments };
}

/** Records every directory between the root and `t` (exclusive, or inclusive) that is missing. */
async function recordMissingDirs(
  ctx: CaptureDeps,
  turn: TurnContext,
  rec: Recording,
  t: Target,
  inclusive: boolean,
): Promise<void> {
  if (!t.root.tracked) return;
  const missing: Target[] = [];
  let depth = inclusive ? t.segments.length : t.segments.length - 1;
  let abs = inclusive ? t.abs : path.dirname(t.abs);
  while (depth > 0 && (await ctx.fs.lstatOrNull(abs)) === null) {
    const segments = t.segments.slice(0, depth);
    missing.unshift({ uri: formatUri(t.root.name, segments), abs, root: t.root, segments });
    depth--;
    abs = path.dirname(abs);
  }
  for (const dir of missing)
    if (!alreadyHeld(turn, dir)) rec.add({ op: 'mkdir', from: dir, fromCaptured: { state: null } });
}

interface TreeNode {
  rel: string[];
  isDir: boolean;
  excluded: boolean;
}

type TooLarge = { tooLarge: true; files: number; bytes: number };

/**
 * Lists a directory's subtree (the directory itself excluded); too large past the limits. The
 * tree walker (paths/walk.ts) lists each folder and looks at its names through the folder's
 * handle, a sub-folder opened from its parent's: a link swapped in there is the race error,
 * never entered. Excluded paths are listed (their states are recorded as excluded), not entered.
 * The states recorded for the paths are read by path afterwards, each walked from the root.
 */
async function listTree(ctx: CaptureDeps, dir: Target): Promise<TreeNode[] | TooLarge> {
  const nodes: TreeNode[] = [];
  let files = 0;
  let bytes = 0;
  const { maxDeleteFiles, maxDeleteBytes } = ctx.limits;
  const top = ctx.fs.openScanDir(dir.abs);
  try {
    const complete = await walkTree<string[]>(top, {
      root: dir.root,
      rel: dir.segments.join('/'),
      frame: [],
      exclusion: exclusionOf(ctx, dir.root),
      visitor: {
        withExcluded: true,
        entry: (at, descend) => {
          if (!at.stats) return;
          const rel = [...at.folder.frame, at.name];
          const isDir = at.stats.isDirectory();
          nodes.push({ rel, isDir, excluded: at.excluded });
          if (isDir) return at.excluded ? undefined : descend(at, rel).then(() => undefined);
          files++;
          if (!at.excluded) bytes += at.stats.size;
          if (files > maxDeleteFiles || bytes > maxDeleteBytes) return STOP;
        },
      },
    });
    return complete ? nodes : { tooLarge: true, files, bytes };
  } finally {
    top.close();
  }
}

function descend(t: Target, rel: string[]): Target {
  return rel.reduce((acc, name) => child(acc, name), t);
}

/**
 * Records what `op` is about to change. Both ends of a rename/move are recorded; a directory
 * that is deleted or moved has every path under it recorded too (at both ends).
 */
export async function recordOp(
  ctx: CaptureDeps,
  turn: TurnContext,
  op: EntryOp,
  r: Resolved,
  to?: Resolved,
  options: { force?: boolean } = {},
): Promise<void> {
  // What a command changed there and its scans missed is the command's, before this capture takes the path's state.
  await ctx.scans?.catchUp(turn, to ? [r.realUri, to.realUri] : [r.realUri]);
  const from = targetOf(r);
  await record(
    ctx,
    turn,
    async (rec) => {
      if (op === 'mkdir') {
        await recordMissingDirs(ctx, turn, rec, from, true);
        return;
      }
      if (op === 'write') {
        await recordMissingDirs(ctx, turn, rec, from, false);
        if (!alreadyHeld(turn, from)) rec.add({ op, from, fromCaptured: await rec.state(from) });
        return;
      }
      if (op === 'delete' && alreadyHeld(turn, from)) return;
      const stats = await ctx.fs.lstatOrNull(from.abs);
      const isDir = stats?.isDirectory() ?? false;
      if (op === 'delete') {
        if (isDir && from.root.tracked && !isExcluded(ctx, from.segments)) {
          const tree = await listTree(ctx, from);
          if (!Array.isArray(tree)) {
            rec.refuseTree(from, tree.files, tree.bytes);
            rec.add({ op: 'delete', from, fromCaptured: { ...(await rec.state(from)), skipped: 'too-large' } });
            return;
          }
          for (const node of tree.reverse()) {
            const t = descend(from, node.rel);
            rec.add({ op: 'delete', from: t, fromCaptured: await rec.state(t) });
          }
        }
        rec.add({ op: 'delete', from, fromCaptured: await rec.state(from) });
        return;
      }
      if (!to) return;
      const dest = targetOf(to);
      await recordMissingDirs(ctx, turn, rec, dest, false);
      if (isDir && (from.root.tracked || dest.root.tracked)) {
        // The source is walked even when untracked: its paths name what arrives at a tracked end.
        const tree = await listTree(ctx, from);
        if (!Array.isArray(tree)) rec.refuseTree(from, tree.files, tree.bytes);
        else {
          for (const node of tree) {
            const a = descend(from, node.rel);
            const b = descend(dest, node.rel);
            rec.add({ op, from: a, fromCaptured: await rec.state(a), to: b, toCaptured: await rec.state(b) });
          }
        }
      }
      const fromCaptured = await rec.state(from);
      rec.add({ op, from, fromCaptured, to: dest, toCaptured: await rec.state(dest) });
    },
    options.force ?? false,
  );
}
