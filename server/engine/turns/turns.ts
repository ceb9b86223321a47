// Turn lifecycle (begin, commit) and the mapping of stored rows to the API's shapes.
import type { Entry, Turn, TurnKind } from '../../protocol.js';
import { TITLE_LIMIT } from '../../protocol.js';
import { workspaceIdOf } from '../../state-dir.js';
import { commitTurn, type CommitDeps } from './commit.js';
import type { TurnContext } from '../context.js';
import type { Housekeeping } from '../content/housekeeping.js';
import type { Sessions } from '../db/sessions.js';
import type { Events } from '../events.js';
import type { Entries, StoredEntry } from '../db/entries.js';
import type { StoredTurn } from '../db/turns.js';
import type { Commands } from '../db/commands.js';
import type { Roots } from '../paths/roots.js';

/** Paths a turn's listing names (docs/api.md: `preview`, at most 5). */
const PREVIEW_PATHS = 5;

/** What a turn's view reads: which roots are tracked, its commands, and its changes for its preview. */
export interface TurnViewDeps {
  roots: Roots;
  store: { commands: Commands; entries: Entries };
}

/** What beginning and ending a turn touch: the commit's needs, the session's activity, the events. */
export interface TurnLifecycleDeps extends CommitDeps {
  store: CommitDeps['store'] & { sessions: Sessions };
  events: Events;
  housekeeping: Housekeeping;
  log(line: string): void;
}

/** The first non-blank line, trimmed, cut at TITLE_LIMIT code points (a surrogate pair is never split). */
export function titleOf(content: string): string {
  const line =
    content
      .split(/\r\n|\r|\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const points = Array.from(line);
  return points.length > TITLE_LIMIT ? points.slice(0, TITLE_LIMIT).join('') : line;
}

export function toTurn(ctx: TurnViewDeps, row: StoredTurn): Turn {
  const counts = row.counts;
  let fileCount = 0;
  let skippedCount = 0;
  let renameCount = 0;
  const lines = { added: 0, removed: 0 };
  for (const [root, c] of Object.entries(counts)) {
    if (!ctx.roots.get(root)?.tracked) continue;
    fileCount += c.files;
    skippedCount += c.skipped;
    renameCount += c.renames ?? 0;
    lines.added += c.added ?? 0;
    lines.removed += c.removed ?? 0;
  }
  // Previews only: a listing stays small however long the commands were (the command route has their text).
  const execCommands = ctx.store.commands.previews(row.turnId).map(({ scanned: _scanned, ...command }) => command);
  const turn: Turn = {
    turnId: row.turnId,
    sessionId: row.sessionId,
    number: row.number,
    kind: row.kind,
    title: row.title,
    status: row.status,
    interrupted: row.interrupted,
    startedAt: new Date(row.startedAt).toISOString(),
    endedAt: row.endedAt === null ? null : new Date(row.endedAt).toISOString(),
    fileCount,
    skippedCount,
    execUsed: execCommands.length > 0,
    execCaptured:
      execCommands.length > 0 &&
      execCommands.every(
        (c) => c.endedAt != null && c.changed != null && !c.skipped?.some((s) => s.reason !== 'over-budget'),
      ),
    execCommands,
    preview: ctx.store.entries.previewOf(row.turnId, (u) => ctx.roots.isTrackedUri(u), PREVIEW_PATHS),
    messageCount: row.messageCount,
    lines,
    renameCount,
  };
  if (row.rollbackOf) turn.rollbackOf = row.rollbackOf;
  if (row.rolledBackBy) turn.rolledBackBy = row.rolledBackBy;
  if (row.concurrent?.length) turn.concurrent = row.concurrent;
  if (row.linked?.length) turn.linked = row.linked.map((link) => ({ workspaceId: workspaceIdOf(link.root), ...link }));
  if (row.kind === 'pin') turn.pinned = row.pinned;
  return turn;
}

export function toEntry(row: StoredEntry): Entry {
  const entry: Entry = {
    seq: row.seq,
    op: row.op,
    uri: row.uri,
    before: row.before,
    after: row.after,
  };
  if (row.toUri) {
    entry.to = row.toUri;
    entry.toBefore = row.toBefore;
    entry.toAfter = row.toAfter;
  }
  if (row.skipped) entry.skipped = row.skipped;
  if (row.execId) entry.execId = row.execId;
  if (row.stepId) entry.stepId = row.stepId;
  return entry;
}

export function beginTurn(
  ctx: TurnLifecycleDeps,
  sessionId: string,
  kind: TurnKind,
  title: string,
  rollbackOf?: string[],
): TurnContext {
  return ctx.turns.begin(sessionId, kind, title, rollbackOf);
}

/**
 * The last resort when a commit fails: after-states read without keeping their contents (so
 * little is written), the turn marked interrupted. What the turn did stays undoable; its
 * diffs lack the after side.
 */
export async function endTurnWithoutAfterContents(
  ctx: TurnLifecycleDeps,
  turnId: string,
  sessionId: string,
  alsoInTransaction?: () => void,
): Promise<void> {
  if (!ctx.turns.recordingOrResumed(turnId)) return;
  await commitTurn(
    ctx,
    turnId,
    true,
    () => {
      ctx.turns.release(sessionId, turnId);
      alsoInTransaction?.();
    },
    { keepContents: false },
  );
  ctx.turns.end(turnId);
  ctx.events.emit('turn-committed', { sessionId, turnId });
}

/**
 * Commits a turn: after-states from disk, summary, status `committed`; `alsoInTransaction`
 * lands with it or not at all (a rollback's statuses and messages).
 */
export async function endTurn(
  ctx: TurnLifecycleDeps,
  turnId: string,
  sessionId: string,
  interrupted = false,
  alsoInTransaction?: () => void,
): Promise<void> {
  // A turn a crash cut into stays marked so, however it ends.
  const cut = interrupted || (ctx.turns.get(turnId)?.cutByCrash ?? false);
  await commitTurn(ctx, turnId, cut, () => {
    ctx.turns.release(sessionId, turnId);
    ctx.store.sessions.touch(sessionId, ctx.now());
    alsoInTransaction?.();
  });
  // In the background, off the agent's path: packing the contents, checkpointing the WAL.
  ctx.housekeeping.schedule();
  ctx.turns.end(turnId);
  ctx.events.emit('turn-committed', { sessionId, turnId });
}

/**
 * Commits a turn; when its commit fails (no space for the after-contents, a file that cannot
 * be read), commits it again keeping no contents, marked interrupted: a turn left active would
 * take the next edits for its own. Only when even that fails does the error reach the caller,
 * and the turn stays for the next attempt.
 */
export async function endTurnOrWithoutAfterContents(
  ctx: TurnLifecycleDeps,
  turnId: string,
  sessionId: string,
  interrupted = false,
  alsoInTransaction?: () => void,
): Promise<void> {
  try {
    await endTurn(ctx, turnId, sessionId, interrupted, alsoInTransaction);
  } catch (e) {
    const kind = ctx.turns.get(turnId)?.kind ?? ctx.store.turns.get(turnId)?.kind;
    ctx.log(
      `the commit of ${kind === 'rollback' ? 'rollback turn' : 'turn'} ${turnId} failed (${(e as Error).message}); committed without its after-contents, as interrupted`,
    );
    await endTurnWithoutAfterContents(ctx, turnId, sessionId, alsoInTransaction);
  }
}
