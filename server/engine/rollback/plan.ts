// Planning a rollback: for every path, its target (the state at the start of the covered
// turns), what the turns left (the expected state), and what is on disk now. Writes nothing.
import path from 'node:path';
import type { SizeLimits } from '../state/size-limit.js';
import type {
  FileChange,
  LineCounts,
  PlanAction,
  PlanFolder,
  RestoreErrorCode,
  SkipReason,
  State,
} from '../../protocol.js';
import type { ContentStore } from '../content/contents.js';
import type { Entries } from '../db/entries.js';
import type { EngineFs } from '../paths/fs.js';
import { FileNotFoundError } from '../errors.js';
import type { Resolved, Root, Roots } from '../paths/roots.js';
import { sameContent, sameForDrift, sameMode } from '../state/state.js';
import { readStateNoFollow } from '../state/read-state.js';
import { type Seen, seenOf } from '../state/seen.js';
import type { StoredTurn } from '../db/turns.js';
import { formatUri, isSameOrBelow, parentUri } from '../paths/uri.js';
import { linesKey } from '../turns/summary.js';

/** What gathering the paths of turns reads: their entries, and which roots are tracked. */
export interface CoverageDeps {
  roots: Roots;
  store: { entries: Entries };
}

/** What weighing each path against the disk reads: the disk, the roots, the kept contents. */
export interface EvaluateDeps {
  fs: EngineFs;
  roots: Roots;
  contents: ContentStore;
  limits: SizeLimits;
}

export interface PathTarget {
  uri: string;
  target: State;
  expected: State;
  skipped?: SkipReason;
  /** Pulled in only because it holds a selected path the turn created or removed it with: never reported as a path, only as a folder. */
  soft?: boolean;
}

export type PathStatus = 'unchanged' | 'action' | 'conflict' | 'blocked';

export interface EvaluatedPath extends PathTarget {
  current: State;
  status: PathStatus;
  /** Why a blocked path cannot be driven back. */
  code?: RestoreErrorCode;
  message?: string;
  resolved?: Resolved;
  /** Path currently holding this path's target content (move back by rename). */
  moveFrom?: string;
  /** A symlink lies on the way (a legitimate one the rollback replaces): read as absent. */
  belowLink?: boolean;
  /** What planning's lstat saw (null: nothing there); the rollback's later steps check the path still shows it. */
  seen?: Seen | null;
  /** A rename's or move's destination the covered turns created, a folder holding nothing now: the only kind a rollback moves back whole. */
  emptyDir?: boolean;
}

export interface MoveLink {
  from: string;
  to: string;
}

export interface Coverage {
  turns: StoredTurn[];
  paths: PathTarget[];
  /** Renames and moves of the covered turns, newest first. */
  links: MoveLink[];
  /** The line counts of each covered change driven back, swapped (turns/summary.ts `linesKey`): the rollback turn's own. */
  knownLines?: Map<string, LineCounts>;
}

const SKIP_CODES: Record<SkipReason, RestoreErrorCode> = {
  'too-large': 'TOO_LARGE',
  budget: 'TOO_LARGE',
  excluded: 'EXCLUDED',
  unreadable: 'IO',
};

/**
 * Why a path's original was not kept, if it was not: a file's `skipped` may instead say that what
 * the turn left there could not be captured (commit.ts), which the plan checks on disk again.
 */
function originalSkip(change: FileChange): SkipReason | undefined {
  if (!change.skipped || change.skipped === 'excluded') return change.skipped;
  const before = change.before;
  // A folder's own too-large is its tree's (too large to record path by path); a special file is never kept.
  const kept =
    before === null ||
    before.type === 'symlink' ||
    (before.type === 'file' && before.hash !== '') ||
    (before.type === 'dir' && change.skipped !== 'too-large' && change.skipped !== 'budget');
  return kept ? undefined : change.skipped;
}

/** Paths of the given turns (oldest first): target from the earliest, expected from the latest. */
export function coverageOf(ctx: CoverageDeps, turns: StoredTurn[]): Coverage {
  const byUri = new Map<string, PathTarget>();
  const links: MoveLink[] = [];
  const knownLines = new Map<string, LineCounts>();
  for (const turn of turns) {
    for (const change of ctx.store.entries.changesOf(turn.turnId)) {
      if (!ctx.roots.isTrackedUri(change.uri)) continue;
      const back = change.lines && !change.from ? linesKey(change.after, change.before) : null;
      if (back !== null) knownLines.set(back, { added: change.lines!.removed, removed: change.lines!.added });
      const known = byUri.get(change.uri);
      if (known) known.expected = change.after;
      else
        byUri.set(change.uri, {
          uri: change.uri,
          target: change.before,
          expected: change.after,
          skipped: originalSkip(change),
        });
    }
    links.push(...ctx.store.entries.movesOf(turn.turnId));
  }
  return { turns, paths: [...byUri.values()], links: links.reverse(), knownLines };
}

/** Narrows a coverage to selected URIs plus the paths chained to them by renames and moves. */
export function selectPaths(coverage: Coverage, uris: string[]): PathTarget[] {
  const known = new Map(coverage.paths.map((p) => [p.uri, p]));
  for (const uri of uris) if (!known.has(uri)) throw new FileNotFoundError(uri);
  const selected = new Set<string>();
  const queue = [...uris];
  while (queue.length > 0) {
    const uri = queue.pop()!;
    if (selected.has(uri)) continue;
    selected.add(uri);
    for (const p of coverage.paths) if (p.uri !== uri && isSameOrBelow(p.uri, uri)) queue.push(p.uri);
    for (const link of coverage.links) {
      if (link.from === uri && known.has(link.to)) queue.push(link.to);
      if (link.to === uri && known.has(link.from)) queue.push(link.from);
    }
  }
  const result = coverage.paths.filter((p) => selected.has(p.uri));
  // Directories the turn created above a selected path go too, when nothing else is left in them;
  // those it removed come back (with their recorded mode), so a chosen file has its folder again
  // and the preview names every folder the restore makes.
  for (const p of [...result]) {
    for (let parent = parentUri(p.uri); parent; parent = parentUri(parent)) {
      const dir = known.get(parent);
      const created = dir?.target === null;
      const removed = dir?.target?.type === 'dir' && dir.expected === null;
      if (!dir || selected.has(parent) || !(created || removed)) continue;
      selected.add(parent);
      result.push({ ...dir, soft: true });
    }
  }
  return result;
}

/**
 * How a target's kept content is checked: read back and verified against its hash (a preview,
 * which must name what cannot be restored), or only found in the store (a rollback that goes
 * on to restore it: staging reads and verifies it before its temp file exists, so a damaged
 * one is UNRESTORABLE there and never written, without reading every content twice).
 */
export type ContentCheck = 'verify' | 'present';

export async function evaluate(
  ctx: EvaluateDeps,
  paths: PathTarget[],
  links: MoveLink[],
  check: ContentCheck = 'verify',
): Promise<EvaluatedPath[]> {
  const evaluated: EvaluatedPath[] = [];
  const byUri = new Map(paths.map((p) => [p.uri, p]));
  // A rollback under way only finds its contents in the store: all of them in one look.
  const present =
    check === 'present'
      ? ctx.contents.present(paths.flatMap((p) => (p.target?.type === 'file' ? [p.target.hash] : [])))
      : null;
  /** Where a rename or move left something: the only paths a folder may move back whole from. */
  const destinations = new Set(links.map((l) => l.to));
  for (const p of paths) {
    const e: EvaluatedPath = { ...p, current: null, status: 'action' };
    evaluated.push(e);
    try {
      e.resolved = ctx.roots.locate(p.uri);
    } catch {
      Object.assign(e, {
        status: 'blocked',
        code: 'SYMLINK',
        message: "the path leads into the engine's data; not followed",
      });
      continue;
    }
    const atMs = Date.now();
    const read = await readStateNoFollow(ctx.fs, e.resolved.abs, {
      maxFileSize: ctx.limits.maxFileSize,
      storeBudget: ctx.limits.storeBudget,
      excluded: false,
    });
    e.current = read.state;
    e.seen = read.stats ? seenOf(read.stats, atMs) : null;
    e.belowLink = read.ancestors === 'link';
    if (e.current?.type === 'dir' && p.target === null && destinations.has(p.uri))
      e.emptyDir = await ctx.fs.readdir(e.resolved.abs).then(
        (names) => names.length === 0,
        () => false,
      );
    if (read.ancestors === 'link' && p.target === null) {
      // Below a symlink the recorded path does not exist: nothing to remove, nothing followed.
      e.status = 'unchanged';
    } else if (read.ancestors === 'link' && !(await linkLeftByTurns(ctx, e.resolved.root, read.linkAt!, byUri))) {
      Object.assign(e, {
        status: 'blocked',
        code: 'SYMLINK',
        message: 'a symlink was planted on the way; not followed',
      });
    } else if (p.skipped) {
      Object.assign(e, {
        status: 'blocked',
        code: SKIP_CODES[p.skipped],
        message: `not captured (${p.skipped}); left as it is`,
      });
    } else if (read.skipped === 'unreadable' && e.current?.type !== 'special') {
      Object.assign(e, {
        status: 'blocked',
        code: 'IO',
        message: 'the current file cannot be read, so it cannot be captured first',
      });
    } else if (sameForDrift(e.current, p.target) && sameMode(e.current, p.target)) {
      e.status = 'unchanged';
    } else if (sameForDrift(e.current, p.expected) || (e.current?.type === 'dir' && p.target?.type === 'dir')) {
      // A directory where a directory belongs differs at most in mode: fixing it risks nothing.
      e.status = 'action';
    } else if (
      e.current &&
      e.current.type !== 'file' &&
      e.current.type !== 'special' &&
      e.current.type !== p.expected?.type
    ) {
      Object.assign(e, {
        status: 'blocked',
        code: 'SYMLINK',
        message: `a ${e.current.type} was planted here; not followed`,
      });
    } else {
      e.status = 'conflict';
    }
    if (
      (e.status === 'action' || e.status === 'conflict') &&
      (read.skipped === 'too-large' || read.skipped === 'budget')
    ) {
      // Changing it would lose bytes the rollback turn cannot keep, so its own undo could not bring them back.
      Object.assign(e, {
        status: 'blocked',
        code: 'TOO_LARGE',
        message:
          read.skipped === 'budget'
            ? 'the file on disk is larger than the store budget: it cannot be captured before changing it'
            : 'the file on disk is too large to capture before changing it',
      });
    }
    // Verified as it will be read back (size and hash): a damaged content is known before anything is written
    // (or, for a rollback under way, found: its staging verifies it before writing anything).
    if (
      (e.status === 'action' || e.status === 'conflict') &&
      p.target?.type === 'file' &&
      !(present ? present.has(p.target.hash) : await ctx.contents.verify(p.target.hash))
    ) {
      Object.assign(e, { status: 'blocked', code: 'UNRESTORABLE', message: 'the kept content is missing or damaged' });
    }
  }
  matchMoveBacks(evaluated, links);
  return evaluated;
}

/** A link on the way is legitimate when the covered turns left it there and the rollback replaces it. */
async function linkLeftByTurns(
  ctx: { fs: EngineFs },
  root: Root,
  linkAbs: string,
  byUri: Map<string, PathTarget>,
): Promise<boolean> {
  const rel = path.relative(root.real, linkAbs);
  const planned = byUri.get(formatUri(root.name, rel.split(path.sep)));
  if (!planned || planned.expected?.type !== 'symlink' || planned.target?.type === 'symlink') return false;
  const target = await ctx.fs.readlink(linkAbs).catch(() => null);
  return target === planned.expected.target;
}

/** Pairs each path to restore with the path its content was moved to, following rename chains. */
function matchMoveBacks(paths: EvaluatedPath[], links: MoveLink[]): void {
  const byUri = new Map(paths.map((p) => [p.uri, p]));
  const claimed = new Set<string>();
  for (const p of paths) {
    if (p.status === 'unchanged' || p.status === 'blocked' || p.target === null || p.current !== null) continue;
    const seen = new Set([p.uri]);
    const frontier = [p.uri];
    while (frontier.length > 0 && !p.moveFrom) {
      const at = frontier.shift()!;
      for (const link of links) {
        if (link.from !== at || seen.has(link.to)) continue;
        seen.add(link.to);
        frontier.push(link.to);
        const candidate = byUri.get(link.to);
        if (
          !candidate ||
          claimed.has(candidate.uri) ||
          candidate.status === 'blocked' ||
          candidate.status === 'unchanged'
        )
          continue;
        if (candidate.target !== null || !sameContent(candidate.current, p.target)) continue;
        // A directory goes back whole only when nothing under it is planned path by path, and
        // it holds nothing: what a later turn or step put in it is not the rollback's to move.
        if (
          candidate.current?.type === 'dir' &&
          (!candidate.emptyDir || paths.some((q) => q.uri !== candidate.uri && isSameOrBelow(q.uri, candidate.uri)))
        )
          continue;
        p.moveFrom = candidate.uri;
        claimed.add(candidate.uri);
        break;
      }
    }
  }
}

export function planActions(paths: EvaluatedPath[]): PlanAction[] {
  const movedAway = new Set(paths.filter((p) => p.moveFrom).map((p) => p.moveFrom!));
  return paths
    .filter((p) => !p.soft && !movedAway.has(p.uri))
    .map((p) => {
      const conflict = p.status === 'conflict';
      if (p.status === 'unchanged' || p.status === 'blocked') return { uri: p.uri, action: 'none', conflict: false };
      if (p.moveFrom) return { uri: p.uri, action: 'move-back', from: p.moveFrom, conflict };
      return { uri: p.uri, action: p.target === null ? 'delete' : 'restore', conflict };
    });
}

/** Folders the paths create or remove, the soft ones (pulled in by a selection) included. */
export function planFolders(paths: EvaluatedPath[]): PlanFolder[] {
  return paths
    .filter((p) => p.status === 'action' || p.status === 'conflict')
    .flatMap((p): PlanFolder[] => {
      if (p.target?.type === 'dir' && p.current?.type !== 'dir')
        return [{ uri: p.uri, action: 'create', implied: Boolean(p.soft) }];
      if (p.target === null && p.current?.type === 'dir')
        return [{ uri: p.uri, action: 'remove', implied: Boolean(p.soft) }];
      return [];
    });
}
