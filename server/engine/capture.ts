// Capture: before a mutation, record the states it is about to change as entries of the turn.
// Order is blob (fsynced) → entry row (committed) → the mutation, which the caller does next.
import path from 'node:path';
import type { EntryOp, SkipReason, State } from '../protocol.js';
import { type EngineContext, type TurnContext, isExcluded, pin, unpin } from './context.js';
import { inParallel } from './parallel.js';
import type { Resolved, Root } from './roots.js';
import { readState, stringifyState } from './states.js';
import { formatUri } from './uri.js';

interface Captured { state: State; skipped?: SkipReason; pinned: string[]; unflushed?: Buffer }

interface Target { uri: string; abs: string; root: Root; segments: string[] }

/** Reads a path's state; its content is kept as a blob only the first time in this turn. */
async function captureState(ctx: EngineContext, turn: TurnContext, target: Target): Promise<Captured> {
  if (!target.root.tracked) return { state: null, pinned: [] };
  const first = !turn.captured.has(target.uri);
  const pinned: string[] = [];
  const read = await readState(ctx.fs, ctx.blobs, target.abs, {
    keepBlob: first,
    deferred: true,
    maxFileSize: ctx.limits.maxFileSize,
    excluded: isExcluded(ctx, target.segments),
    pin: (hash) => { pin(ctx, hash); pinned.push(hash); },
  });
  if (read.state?.type === 'file') turn.contents?.keep(read.state.hash, read.bytes);
  return { state: read.state, skipped: read.skipped, pinned, unflushed: read.unflushed ? read.bytes : undefined };
}

interface PendingEntry { op: EntryOp; from: Target; fromCaptured: Captured; to?: Target; toCaptured?: Captured }

/**
 * Records the entries in one fully synced commit, with the bytes of any content whose blob file
 * is not flushed yet: once it returns, the capture is safe on disk and the mutation may run.
 */
function insertEntries(ctx: EngineContext, turn: TurnContext, pending: PendingEntry[]): void {
  ctx.store.transaction(() => {
    for (const { op, from, fromCaptured, to, toCaptured } of pending) {
      const seq = turn.seq + 1;
      const stored = new Set([...fromCaptured.pinned, ...(toCaptured?.pinned ?? [])]);
      for (const captured of toCaptured ? [fromCaptured, toCaptured] : [fromCaptured]) {
        const s = captured.state;
        if (s?.type !== 'file' || !s.hash) continue;
        // Only content written to the blob store gets a row; later states of a path are hashed only.
        if (stored.has(s.hash)) ctx.store.addBlob(s.hash, s.size);
        if (captured.unflushed) ctx.store.addPendingContent(s.hash, captured.unflushed);
        ctx.store.addRef(s.hash, turn.turnId);
      }
      ctx.store.insertEntry({
        turn_id: turn.turnId, seq, op, uri: from.uri, to_uri: to?.uri ?? null,
        before: stringifyState(fromCaptured.state), after: null,
        to_before: to ? stringifyState(toCaptured?.state ?? null) : null, to_after: null,
        skipped: fromCaptured.skipped ?? null, to_skipped: toCaptured?.skipped ?? null,
      });
      turn.seq = seq;
    }
  });
  for (const { from, fromCaptured, to, toCaptured } of pending) {
    for (const hash of [...fromCaptured.pinned, ...(toCaptured?.pinned ?? [])]) unpin(ctx, hash);
    for (const t of to ? [from, to] : [from]) {
      if (!t.root.tracked) continue;
      const isNew = !turn.captured.has(t.uri);
      turn.captured.add(t.uri);
      if (isNew) ctx.events.emit('captured', { sessionId: turn.sessionId, turnId: turn.turnId, uri: t.uri });
    }
  }
}

function appendEntry(
  ctx: EngineContext, turn: TurnContext, op: EntryOp, from: Target, fromCaptured: Captured,
  to?: Target, toCaptured?: Captured,
): void {
  insertEntries(ctx, turn, [{ op, from, fromCaptured, to, toCaptured }]);
}

/** A quiet turn (a rollback's) records each path once: later writes of it add nothing it needs. */
function alreadyHeld(turn: TurnContext, t: Target): boolean {
  return turn.quiet === true && turn.captured.has(t.uri);
}

/**
 * Records the current state of many paths in one go: blobs written side by side, then a single
 * transaction, before any of them is touched. Paths already recorded in the turn are left out.
 */
export async function recordStates(ctx: EngineContext, turn: TurnContext, items: { r: Resolved; op: EntryOp }[]): Promise<void> {
  const todo = items.filter(({ r }) => r.root.tracked && !turn.captured.has(r.realUri));
  const pending: PendingEntry[] = new Array(todo.length);
  try {
    await inParallel(todo, async ({ r, op }, i) => {
      const from = targetOf(r);
      pending[i] = { op, from, fromCaptured: await captureState(ctx, turn, from) };
    });
  } catch (e) {
    for (const p of pending) for (const hash of p?.fromCaptured.pinned ?? []) unpin(ctx, hash);
    throw e;
  }
  if (pending.length > 0) insertEntries(ctx, turn, pending);
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
async function recordMissingDirs(ctx: EngineContext, turn: TurnContext, t: Target, inclusive: boolean): Promise<void> {
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
  for (const dir of missing) if (!alreadyHeld(turn, dir)) appendEntry(ctx, turn, 'mkdir', dir, { state: null, pinned: [] });
}

interface TreeNode { rel: string[]; isDir: boolean; excluded: boolean }

/** Lists a directory's subtree (the directory itself excluded); 'too-large' past the limits. */
async function walkTree(ctx: EngineContext, dir: Target): Promise<TreeNode[] | 'too-large'> {
  const nodes: TreeNode[] = [];
  let files = 0;
  let bytes = 0;
  const visit = async (abs: string, rel: string[]): Promise<boolean> => {
    const names = (await ctx.fs.readdir(abs)).sort();
    for (const name of names) {
      const childRel = [...rel, name];
      const childAbs = path.join(abs, name);
      if (ctx.roots.isEngineData(dir.root, childAbs)) continue;
      const stats = await ctx.fs.lstatOrNull(childAbs);
      if (!stats) continue;
      const excluded = isExcluded(ctx, [...dir.segments, ...childRel]);
      nodes.push({ rel: childRel, isDir: stats.isDirectory(), excluded });
      if (stats.isDirectory()) {
        if (!excluded && !(await visit(childAbs, childRel))) return false;
        continue;
      }
      files++;
      if (!excluded) bytes += stats.size;
      if (files > ctx.limits.maxDeleteFiles || bytes > ctx.limits.maxDeleteBytes) return false;
    }
    return true;
  };
  return (await visit(dir.abs, [])) ? nodes : 'too-large';
}

function descend(t: Target, rel: string[]): Target {
  return rel.reduce((acc, name) => child(acc, name), t);
}

/**
 * Records what `op` is about to change. Both ends of a rename/move are recorded; a directory
 * that is deleted or moved has every path under it recorded too (at both ends).
 */
export async function recordOp(ctx: EngineContext, turn: TurnContext, op: EntryOp, r: Resolved, to?: Resolved): Promise<void> {
  const from = targetOf(r);
  if (op === 'mkdir') { await recordMissingDirs(ctx, turn, from, true); return; }
  if (op === 'write') {
    await recordMissingDirs(ctx, turn, from, false);
    if (!alreadyHeld(turn, from)) appendEntry(ctx, turn, op, from, await captureState(ctx, turn, from));
    return;
  }
  const stats = await ctx.fs.lstatOrNull(from.abs);
  const isDir = stats?.isDirectory() ?? false;
  if (op === 'delete' && alreadyHeld(turn, from)) return;
  if (op === 'delete') {
    if (isDir && from.root.tracked && !isExcluded(ctx, from.segments)) {
      const tree = await walkTree(ctx, from);
      if (tree === 'too-large') {
        const state = await captureState(ctx, turn, from);
        appendEntry(ctx, turn, 'delete', from, { ...state, skipped: 'too-large' });
        return;
      }
      for (const node of tree.reverse()) {
        const t = descend(from, node.rel);
        appendEntry(ctx, turn, 'delete', t, await captureState(ctx, turn, t));
      }
    }
    appendEntry(ctx, turn, 'delete', from, await captureState(ctx, turn, from));
    return;
  }
  if (!to) return;
  const dest = targetOf(to);
  await recordMissingDirs(ctx, turn, dest, false);
  if (isDir && (from.root.tracked || dest.root.tracked)) {
    // The source is walked even when untracked: its paths name what arrives at a tracked end.
    const tree = await walkTree(ctx, from);
    if (tree !== 'too-large') {
      for (const node of tree) {
        const a = descend(from, node.rel);
        const b = descend(dest, node.rel);
        appendEntry(ctx, turn, op, a, await captureState(ctx, turn, a), b, await captureState(ctx, turn, b));
      }
    }
  }
  const fromCaptured = await captureState(ctx, turn, from);
  appendEntry(ctx, turn, op, from, fromCaptured, dest, await captureState(ctx, turn, dest));
}
