// Drives evaluated paths to their targets through the controlled storage, so every write is
// recorded into the rollback turn: move back by rename first, then removals deepest first,
// then creations shallowest first (file contents in batches: place-contents.ts), then
// directory modes.
import type { EntryOp, RollbackResult, State } from '../../protocol.js';
import { type CaptureDeps, recordStates } from '../record/capture.js';
import type { TurnContext } from '../context.js';
import { inParallel } from '../parallel.js';
import type { EvaluatedPath } from './plan.js';
import type { Resolved } from '../paths/roots.js';
import { type HashPolicy, type ReadState, readStateNoFollow } from '../state/read-state.js';
import { type Seen, seenOf, trustworthy, unchangedSince } from '../state/seen.js';
import { IN_MEMORY_LIMIT } from '../content/contents.js';
import type { Mutations } from '../record/storage.js';
import { isSameOrBelow, uriDepth } from '../paths/uri.js';
import { batches, ContentPlacer, type Staged } from './place-contents.js';
import { ChangedMeanwhile, LinkOnTheWay, restoreErrorOf, SpecialNotMade } from './apply-errors.js';
import type { Overwrites } from '../db/overwrites.js';
import { SET_ID_BITS } from '../paths/overwrite.js';

function opFor(target: State): EntryOp {
  if (target === null) return 'delete';
  return target.type === 'dir' ? 'mkdir' : 'write';
}

type Outcome = Pick<RollbackResult, 'restored' | 'deleted' | 'movedBack' | 'errors'> & {
  replaced: NonNullable<RollbackResult['replaced']>;
};

function compatible(current: State, target: State): boolean {
  if (current === null) return true;
  if (target === null || current.type !== target.type) return false;
  return current.type !== 'symlink' || (target.type === 'symlink' && current.target === target.target);
}

/** What applying touches: what capturing its writes does, the files it writes over in place, the batch size, the log. */
export interface ApplyDeps extends CaptureDeps {
  store: CaptureDeps['store'] & { overwrites: Overwrites };
  log(line: string): void;
}

/**
 * Whether a file written over in place is checked through the open file instead of read again
 * before the rollback turn records it: one whose lstat cannot tell a change since planning (too
 * recent a change: state/seen.ts), both contents small enough to be held whole.
 */
function checkedAtWrite(p: EvaluatedPath): boolean {
  return (
    !!p.seen &&
    !trustworthy(p.seen) &&
    p.current?.type === 'file' &&
    p.current.size <= IN_MEMORY_LIMIT &&
    p.target?.type === 'file' &&
    p.target.size <= IN_MEMORY_LIMIT
  );
}

/**
 * Whether the file planning saw at a path may be written over in place (paths/overwrite.ts)
 * rather than replaced by rename: a regular file with a content (kept by the rollback turn's
 * record), becoming another file, reached without a link on the way, with no set-id bit. The
 * write itself checks the rest (one link, still what planning saw).
 */
function inPlaceCandidate(p: EvaluatedPath): boolean {
  const { current, target } = p;
  return (
    current?.type === 'file' &&
    !!current.hash &&
    target?.type === 'file' &&
    target.hash !== current.hash &&
    !p.belowLink &&
    !!p.seen &&
    (current.mode & SET_ID_BITS) === 0
  );
}

export class Applier {
  readonly outcome: Outcome = { restored: [], deleted: [], movedBack: [], errors: [], replaced: [] };
  private readonly failed = new Set<string>();
  /** Paths this rollback removed itself (what planning saw there is gone by its own hand). */
  private readonly removed = new Set<string>();
  private readonly placer: ContentPlacer;
  /**
   * Paths named in the store as written over in place (db/overwrites.ts), if nothing else moves
   * them first: whether the write checks the content first (it was not read again since planning).
   */
  private readonly inPlace = new Map<string, boolean>();

  constructor(
    private readonly ctx: ApplyDeps,
    private readonly mutations: Mutations,
    private readonly turn: TurnContext,
  ) {
    this.placer = new ContentPlacer(ctx.fs, mutations, turn);
  }

  /** URIs that could not be driven to their target. */
  get failedUris(): ReadonlySet<string> {
    return this.failed;
  }

  /** Whether anything on disk was changed (a rollback that changed nothing leaves no turn). */
  get changedAnything(): boolean {
    return this.touched;
  }
  private touched = false;

  /** Runs one change on disk; a failed one changed nothing, unless it is `partial` (several steps). */
  private async changing<T>(run: () => Promise<T>, partial = false): Promise<T> {
    try {
      const result = await run();
      this.touched = true;
      return result;
    } catch (e) {
      if (partial) this.touched = true;
      throw e;
    }
  }

  async apply(paths: EvaluatedPath[]): Promise<void> {
    const work = paths.filter((p) => p.status === 'action' || p.status === 'conflict');
    const byUri = new Map(paths.map((p) => [p.uri, p]));
    // Everything the rollback will change is recorded first, in one transaction.
    const sources = work
      .filter((p) => p.moveFrom)
      .map((p) => byUri.get(p.moveFrom!)!)
      .filter((p) => !p.belowLink);
    // What planning read is recorded as it is while the path still shows the lstat it was read by;
    // the files that may be written over in place are named with it, before any byte is written.
    const overwrites = work.filter(inPlaceCandidate);
    // A file changed too recently for its lstat to tell a change since is not read again here:
    // its write in place reads it through the open file first (`checkedBeforeChange`).
    const checked = new Set(overwrites.filter(checkedAtWrite).map((p) => p.uri));
    await recordStates(
      this.ctx,
      this.turn,
      [
        ...work
          .filter((p) => !p.belowLink)
          .map((p) => ({
            r: p.resolved!,
            op: opFor(p.target),
            known: { state: p.current, seen: p.seen, checkedBeforeChange: checked.has(p.uri) },
          })),
        ...sources.map((p) => ({ r: p.resolved!, op: 'delete' as const })),
      ],
      () =>
        this.ctx.store.overwrites.add(
          this.turn.turnId,
          overwrites.map((p) => ({ uri: p.resolved!.realUri, before: p.current, target: p.target })),
        ),
    );
    for (const p of overwrites) this.inPlace.set(p.uri, checked.has(p.uri));
    for (const p of work) if (p.moveFrom) await this.moveBack(p, byUri.get(p.moveFrom)!);
    const deepestFirst = [...work].sort((a, b) => uriDepth(b.uri) - uriDepth(a.uri));
    // Files and links go side by side (their fsyncs share journal commits); directories in order.
    const isDir = (s: State) => s?.type === 'dir';
    // Unless a move-back changed it, what planning saw at a path tells whether it needs removing.
    const toRemove = deepestFirst.filter(
      (p) => this.movedOver(p.uri) || (p.current !== null && !compatible(p.current, p.target)),
    );
    await inParallel(
      toRemove.filter((p) => !isDir(p.current)),
      (p) => this.remove(p),
    );
    for (const p of toRemove.filter((q) => isDir(q.current))) await this.remove(p);
    const shallowestFirst = [...deepestFirst].reverse();
    const none: Staged[] = [];
    for (const p of shallowestFirst.filter((q) => isDir(q.target))) await this.create(p, none);
    for (const batch of batches(
      shallowestFirst.filter((p) => !isDir(p.target)),
      this.ctx.limits.placeBatchBytes,
      (p) => this.inPlace.has(p.uri),
    )) {
      const staged: Staged[] = [];
      await inParallel(batch, (p) => this.create(p, staged));
      await this.place(staged);
    }
    for (const p of deepestFirst) await this.fixDirMode(p);
  }

  /**
   * The path's state now, never following a symlink on the way: below one there is nothing to
   * remove (`belowLink: 'absent'`), and nothing may be created (`'refuse'`).
   */
  private async current(
    p: EvaluatedPath,
    belowLink: 'absent' | 'refuse' = 'refuse',
    hash: HashPolicy = 'always',
  ): Promise<State> {
    return (await this.read(p, belowLink, hash)).state;
  }

  private async read(p: EvaluatedPath, belowLink: 'absent' | 'refuse', hash: HashPolicy): Promise<ReadState> {
    const r = p.resolved!;
    const read = await readStateNoFollow(this.ctx.fs, r.abs, { hash, maxFileSize: Infinity, excluded: false });
    if (read.ancestors === 'link' && belowLink === 'refuse') throw new LinkOnTheWay();
    return read;
  }

  private fail(p: EvaluatedPath, e: unknown): void {
    this.failed.add(p.uri);
    if (!p.soft) this.outcome.errors.push(restoreErrorOf(p.uri, e));
  }

  private async moveBack(p: EvaluatedPath, source: EvaluatedPath): Promise<void> {
    try {
      if ((await this.current(p)) !== null || !source.resolved) return;
      await this.current(source);
      // A move across roots copies, then removes: cut short, it may have changed something.
      await this.changing(() => this.mutations.move(this.turn, 'move', source.resolved!, p.resolved!), true);
      this.outcome.movedBack.push({ from: source.uri, to: p.uri });
    } catch (e) {
      // Falls back to writing the content and deleting the source in the later phases.
      p.moveFrom = undefined;
      this.ctx.log(
        `moving ${source.uri} back to ${p.uri} failed (${(e as Error).message}); its content is written back instead`,
      );
    }
  }

  private async remove(p: EvaluatedPath): Promise<void> {
    const r = p.resolved!;
    try {
      // Only the kind of thing there matters for removal: no hashing.
      const current = await this.current(p, 'absent', 'never');
      if (current === null || compatible(current, p.target)) return;
      if (current.type === 'dir') {
        if ((await this.ctx.fs.readdir(r.abs)).length > 0) {
          this.failed.add(p.uri);
          if (!p.soft)
            this.outcome.errors.push({
              uri: p.uri,
              code: 'NOT_EMPTY',
              message: 'the directory holds files the turn did not make',
            });
          return;
        }
      }
      await this.changing(() => this.mutations.delete(this.turn, r, false, false, true));
      this.removed.add(p.uri);
      if (p.target === null && !p.soft) this.outcome.deleted.push(p.uri);
      // A FIFO, socket or device where a stored original belongs: removed, the original placed next.
      if (current.type === 'special' && p.target !== null && !p.soft)
        this.outcome.replaced.push({ uri: p.uri, kind: current.kind });
    } catch (e) {
      this.fail(p, e);
    }
  }

  /** Places a batch (place-contents.ts), reporting each file placed, in the order staged, and each failure. */
  private async place(staged: Staged[]): Promise<void> {
    const { placed, failures } = await this.placer.place(staged);
    if (placed.length > 0) this.touched = true;
    for (const s of placed) if (!s.moved && !s.p.soft) this.outcome.restored.push(s.p.uri);
    for (const { s, e } of failures) this.fail(s.p, e);
  }

  /**
   * Whether a move-back changed what lies at `uri` since planning: it lies at or below one's
   * source or destination, or above its destination (a missing folder is made on the way).
   */
  private movedOver(uri: string): boolean {
    return this.outcome.movedBack.some(
      (m) => isSameOrBelow(uri, m.from) || isSameOrBelow(uri, m.to) || isSameOrBelow(m.to, uri),
    );
  }

  /** Drives a path to its target; a file's content is staged into `staged`, placed later. */
  private async create(p: EvaluatedPath, staged: Staged[]): Promise<void> {
    const { target } = p;
    if (target === null || this.failed.has(p.uri)) return;
    const r: Resolved = p.resolved!;
    try {
      const moved = this.outcome.movedBack.some((m) => m.to === p.uri);
      // The content planning hashed is still there (the capture since recorded whatever is):
      // only after a move-back is a file hashed again; otherwise its kind and mode are enough.
      const planned = this.movedOver(p.uri) ? undefined : p.current;
      const asPlanned = planned !== undefined && p.seen !== undefined && !this.removed.has(p.uri);
      let current: State;
      // What the path must still show when the restored content is renamed over it.
      let replaces: Seen | null;
      if (asPlanned && target.type === 'file' && !p.belowLink) {
        // Nothing of this rollback touched it since planning: what planning saw is what the
        // rollback turn recorded, and the rename checks the path still shows it.
        current = planned;
        replaces = p.seen!;
      } else {
        const read = await this.read(
          p,
          'refuse',
          target.type === 'file' && planned === undefined ? { onlyIfSize: target.size } : 'never',
        );
        // A path that shows something else than planning saw changed since (unless this
        // rollback removed it), and is left as it is.
        if (asPlanned && !unchangedSince(p.seen!, read.stats ?? null)) throw new ChangedMeanwhile();
        const fresh = read.state;
        replaces = read.stats ? seenOf(read.stats, 0) : null;
        current =
          fresh?.type === 'file' && planned?.type === 'file' && planned.size === fresh.size
            ? { ...fresh, hash: planned.hash }
            : fresh;
      }
      if (target.type === 'special') throw new SpecialNotMade(target.kind);
      if (target.type === 'dir') {
        if (current === null) await this.changing(() => this.mutations.mkdir(this.turn, r, 0o700));
      } else if (target.type === 'symlink') {
        if (current?.type === 'symlink' && current.target === target.target) {
          if (moved) return;
        } else await this.changing(() => this.mutations.symlink(this.turn, r, target.target));
      } else if (current?.type === 'file' && current.hash === target.hash) {
        if (current.mode !== target.mode) await this.changing(() => this.mutations.chmod(this.turn, r, target.mode));
        else if (moved) return;
      } else {
        // Written over in place only when it is still the file planning saw and named.
        const over =
          this.inPlace.has(p.uri) && current === planned && planned?.type === 'file'
            ? { hash: planned.hash, mode: planned.mode, checked: this.inPlace.get(p.uri) }
            : undefined;
        staged.push({
          p,
          moved,
          file: await this.placer.stage(
            r,
            target.hash,
            target.mode,
            target.size,
            (now) => unchangedSince(replaces, now ?? null),
            over,
          ),
        });
        return;
      }
      if (!moved && !p.soft) this.outcome.restored.push(p.uri);
    } catch (e) {
      this.fail(p, e);
    }
  }

  private async fixDirMode(p: EvaluatedPath): Promise<void> {
    if (p.target?.type !== 'dir' || this.failed.has(p.uri)) return;
    try {
      const current = await this.current(p);
      const mode = p.target.mode;
      if (current?.type === 'dir' && current.mode !== mode)
        await this.changing(() => this.mutations.chmod(this.turn, p.resolved!, mode));
    } catch (e) {
      this.fail(p, e);
    }
  }
}
