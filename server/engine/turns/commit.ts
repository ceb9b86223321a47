// Commit: read each touched path's after-state from disk (keeping changed content as a blob),
// drop what ended where it began, and store the per-path summary the console shows.
import type { FileChange, LineCounts, State } from '../../protocol.js';
import type { ContentStore } from '../content/contents.js';
import type { EngineLimits, StoreTransactions } from '../context.js';
import type { Entries } from '../db/entries.js';
import type { Overwrites } from '../db/overwrites.js';
import type { Turns } from '../db/turns.js';
import type { EngineFs } from '../paths/fs.js';
import type { Roots } from '../paths/roots.js';
import type { ActiveTurns } from './active-turns.js';
import { isExcluded } from '../paths/exclude.js';
import { UnrestorableContentError } from '../content/contents.js';
import { sameState, stateHashes } from '../state/state.js';
import { readStateNoFollow } from '../state/read-state.js';
import type { StoredEntry } from '../db/entries.js';
import type { TurnCounts } from '../db/turns.js';
import { type PathRecord, TEXT_LIMIT, buildChange, lineDelta, linesKey, renameOrigins } from './summary.js';
import { ContentCache } from '../content/content-cache.js';
import { inParallel } from '../parallel.js';
import { parseUri } from '../paths/uri.js';

// Per root: changed non-directory paths, skipped paths, lines added and removed in its text files, and renames or moves among its files.
export type { TurnCounts };

function pathRecords(entries: StoredEntry[], isTracked: (uri: string) => boolean): Map<string, PathRecord> {
  const records = new Map<string, PathRecord>();
  const note = (uri: string, before: State, skipped: StoredEntry['skipped']) => {
    if (records.has(uri) || !isTracked(uri)) return;
    records.set(uri, { uri, before, after: null, skipped: skipped ?? undefined });
  };
  for (const e of entries) {
    note(e.uri, e.before, e.skipped);
    if (e.toUri) note(e.toUri, e.toBefore, e.toSkipped);
  }
  return records;
}

function changed(record: PathRecord): boolean {
  if (record.skipped) return !(record.before === null && record.after === null);
  return !sameState(record.before, record.after);
}

/** What a commit touches: the disk under the roots, the contents, the turn's entries and row. */
export interface CommitDeps {
  fs: EngineFs;
  roots: Roots;
  contents: ContentStore;
  limits: EngineLimits;
  turns: ActiveTurns;
  store: StoreTransactions & { entries: Entries; turns: Turns; overwrites: Overwrites };
  now(): number;
}

/**
 * A side's content for its line count: null for an absent side, undefined when a file's content
 * is not kept (a commit that keeps no after-contents): then the count is unknown, not "all
 * removed". Called once the commit's batch is stored, so an after-content the turn's cache does
 * not hold is read from the store.
 */
function sideContent(ctx: CommitDeps, state: State, contents: ContentCache): Buffer | null | undefined {
  if (state?.type !== 'file') return null;
  if (!state.hash) return undefined;
  const known = contents.get(state.hash);
  if (known) return known;
  try {
    return ctx.contents.read(state.hash);
  } catch (e) {
    if (e instanceof UnrestorableContentError) return undefined;
    throw e;
  }
}

function withLines(
  ctx: CommitDeps,
  change: FileChange,
  records: Map<string, PathRecord>,
  contents: ContentCache,
  knownLines?: Map<string, LineCounts>,
): FileChange {
  const before = change.from ? (records.get(change.from)?.before ?? null) : change.before;
  const after = change.after;
  const key = change.from ? null : linesKey(before, after);
  const known = key === null ? undefined : knownLines?.get(key);
  if (known) return { ...change, lines: known };
  const isText = (s: State) => s === null || (s.type === 'file' && s.hash !== '' && s.size <= TEXT_LIMIT);
  if (!isText(before) || !isText(after) || (before === null && after === null)) return change;
  if (before?.type !== 'file' && after?.type !== 'file') return change;
  const [a, b] = [sideContent(ctx, before, contents), sideContent(ctx, after, contents)];
  if (a === undefined || b === undefined) return change;
  const delta = lineDelta(a, b);
  return delta ? { ...change, lines: delta } : change;
}

async function canList(ctx: CommitDeps, abs: string): Promise<boolean> {
  try {
    await ctx.fs.readdir(abs);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return false;
    return true;
  }
}

export async function commitTurn(
  ctx: CommitDeps,
  turnId: string,
  interrupted: boolean,
  alsoInTransaction?: () => void,
  options: { keepContents?: boolean } = {},
): Promise<void> {
  const keep = options.keepContents ?? true;
  const entries = ctx.store.entries.of(turnId);
  const records = pathRecords(entries, (uri) => ctx.roots.isTrackedUri(uri));
  const batch = ctx.contents.batch();
  const turn = ctx.turns.get(turnId);
  const contents = turn?.contents ?? new ContentCache();
  // Paths side by side: their reads and blob writes overlap in the thread pool.
  try {
    await inParallel([...records.values()], async (record) => {
      const located = ctx.roots.absOf(record.uri);
      if (!located) return;
      const placed = turn?.placed.get(record.uri);
      if (placed?.type === 'file') {
        // Content this turn itself wrote from a verified blob, and checked in place as it placed
        // it (the very inode renamed there, or written over through its own handle): its state
        // is what was written, not read back. A change after it is the next turn's drift.
        record.after = placed;
        return;
      }
      const read = await readStateNoFollow(ctx.fs, located.abs, {
        keep: keep ? batch : undefined,
        maxFileSize: ctx.limits.maxFileSize,
        storeBudget: ctx.limits.storeBudget,
        excluded: isExcluded(ctx, parseUri(record.uri).segments),
      });
      record.after = read.state;
      // A special file now there is replaced by a rollback, not skipped (it has no content to keep).
      if (read.skipped && read.state?.type !== 'special') record.afterSkipped = read.skipped;
      // A folder turnback may not list: what lies in it is unknown, as exec-end says (unreadable).
      if (read.state?.type === 'dir' && !(await canList(ctx, located.abs))) record.afterSkipped = 'unreadable';
      if (read.state?.type === 'file') contents.keep(read.state.hash, read.bytes);
    });
  } catch (e) {
    batch.discard();
    throw e;
  }
  const kept = new Set([...records.values()].filter(changed).map((r) => r.uri));
  const origins = renameOrigins(entries);
  const kinds = [...records.values()].filter((r) => kept.has(r.uri)).map((r) => buildChange(r, records, origins));
  // After-contents are diff material: stored with the commit, whose loss to a power cut recovery redoes.
  ctx.store.relaxed(() => {
    batch.commit();
    // Counted once the batch is stored: a large after-content is in no cache, only in the store.
    const changes = kinds.map((change) => withLines(ctx, change, records, contents, turn?.knownLines));
    const counts = countsOf(changes);
    ctx.store.entries.clearRefs(turnId);
    for (const e of entries) {
      const after = records.get(e.uri)?.after ?? null;
      const toAfter = e.toUri ? (records.get(e.toUri)?.after ?? null) : null;
      const keep = kept.has(e.uri) || (e.toUri !== null && kept.has(e.toUri));
      if (!keep) {
        ctx.store.entries.remove(turnId, e.seq);
        continue;
      }
      ctx.store.entries.setAfter(turnId, e.seq, after, e.toUri ? toAfter : null);
      for (const hash of stateHashes(e.before, e.toBefore, after, toAfter)) ctx.store.entries.addRef(hash, turnId);
    }
    ctx.store.entries.replaceChanges(turnId, changes);
    // Whatever a rollback wrote over in place is read above as it is: none is being written now.
    ctx.store.overwrites.clear(turnId);
    ctx.store.turns.markCommitted(turnId, ctx.now(), counts, interrupted);
    alsoInTransaction?.();
  });
}

/** The turn's counts per root, from its per-path changes (its preview is read from them too: Entries.previewOf). */
function countsOf(changes: FileChange[]): TurnCounts {
  const counts: TurnCounts = {};
  // A rename's origin is gone only because it moved: its lines are not removed, they moved with it.
  const movedAway = new Set(changes.filter((c) => c.from).map((c) => c.from));
  for (const c of changes) {
    const root = parseUri(c.uri).root;
    counts[root] ??= { files: 0, skipped: 0, added: 0, removed: 0 };
    if (c.skipped) counts[root].skipped++;
    const moved = movedAway.has(c.uri) && c.after === null;
    counts[root].added! += moved ? 0 : (c.lines?.added ?? 0);
    counts[root].removed! += moved ? 0 : (c.lines?.removed ?? 0);
    const isDir = c.before?.type === 'dir' || c.after?.type === 'dir';
    if (!isDir) counts[root].files++;
    if (!isDir && c.from) counts[root].renames = (counts[root].renames ?? 0) + 1;
  }
  return counts;
}
