// Turn lifecycle (begin, commit) and the mapping of stored rows to the API's shapes.
import type { Entry, EntryOp, FileChange, SkipReason, Turn, TurnKind } from '../../protocol.js';
import { TITLE_LIMIT } from '../../protocol.js';
import { commitTurn, type TurnCounts } from './commit.js';
import { ContentCache } from '../content/content-cache.js';
import type { EngineContext, TurnContext } from '../context.js';
import { parseState } from '../record/path-state.js';
import type { ChangeRow, EntryRow, TurnRow } from '../db/store.js';
import { newId } from '../ids.js';

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

export function toTurn(ctx: EngineContext, row: TurnRow): Turn {
  const counts = JSON.parse(row.counts) as TurnCounts;
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
  const execCommands = ctx.store.commands.previews(row.turn_id).map(({ scanned: _scanned, ...command }) => command);
  const turn: Turn = {
    turnId: row.turn_id,
    sessionId: row.session_id,
    number: row.number,
    kind: row.kind,
    title: row.title,
    status: row.status,
    interrupted: row.interrupted === 1,
    startedAt: new Date(row.started_at).toISOString(),
    endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
    fileCount,
    skippedCount,
    execUsed: execCommands.length > 0,
    execCaptured:
      execCommands.length > 0 &&
      execCommands.every(
        (c) => c.endedAt != null && c.changed != null && !c.skipped?.some((s) => s.reason !== 'over-budget'),
      ),
    execCommands,
    preview: (JSON.parse(row.preview) as string[]).filter((u) => ctx.roots.isTrackedUri(u)).slice(0, 5),
    messageCount: row.message_count ?? 0,
    lines,
    renameCount,
  };
  if (row.rollback_of) turn.rollbackOf = JSON.parse(row.rollback_of) as string[];
  if (row.rolled_back_by) turn.rolledBackBy = row.rolled_back_by;
  if (row.kind === 'pin') turn.pinned = row.pinned === 1;
  return turn;
}

export function toEntry(row: EntryRow): Entry {
  const entry: Entry = {
    seq: row.seq,
    op: row.op as EntryOp,
    uri: row.uri,
    before: parseState(row.before),
    after: parseState(row.after),
  };
  if (row.to_uri) {
    entry.to = row.to_uri;
    entry.toBefore = parseState(row.to_before);
    entry.toAfter = parseState(row.to_after);
  }
  if (row.skipped) entry.skipped = row.skipped as SkipReason;
  if (row.exec_id) entry.execId = row.exec_id;
  if (row.step_id) entry.stepId = row.step_id;
  return entry;
}

export function toChange(row: ChangeRow): FileChange {
  return JSON.parse(row.data) as FileChange;
}

export function beginTurn(
  ctx: EngineContext,
  sessionId: string,
  kind: TurnKind,
  title: string,
  rollbackOf?: string[],
): TurnContext {
  const turnId = newId('t_');
  ctx.store.relaxed(() => {
    const number = ctx.store.nextNumber(sessionId);
    ctx.store.insertTurn({
      turn_id: turnId,
      session_id: sessionId,
      number,
      kind,
      rollback_of: rollbackOf ? JSON.stringify(rollbackOf) : null,
      title,
      status: 'active',
      rolled_back_by: null,
      interrupted: 0,
      started_at: ctx.now(),
      ended_at: null,
      counts: '{}',
      preview: '[]',
      undo: null,
    });
    if (kind === 'agent') ctx.store.setActiveTurn(sessionId, turnId);
    // Only a person rolls back (the console's routes, the library): the session is theirs from now on.
    else ctx.store.claimSession(sessionId);
    ctx.store.touchSession(sessionId, ctx.now());
  });
  const turn: TurnContext = {
    turnId,
    sessionId,
    kind,
    seq: 0,
    captured: new Set(),
    contents: new ContentCache(),
    placed: new Map(),
    step: null,
  };
  ctx.turns.set(turnId, turn);
  ctx.events.emit('turn-begun', { sessionId, turnId });
  return turn;
}

/** The in-memory view of a turn recorded by an earlier process (recovery after a crash). */
export function resumeTurn(ctx: EngineContext, row: TurnRow): TurnContext {
  const entries = ctx.store.entriesOf(row.turn_id);
  const captured = new Set<string>();
  for (const e of entries) {
    captured.add(e.uri);
    if (e.to_uri) captured.add(e.to_uri);
  }
  const turn: TurnContext = {
    turnId: row.turn_id,
    sessionId: row.session_id,
    kind: row.kind,
    seq: ctx.store.maxSeq(row.turn_id),
    captured,
    contents: new ContentCache(),
    placed: new Map(),
    step: null,
  };
  ctx.turns.set(row.turn_id, turn);
  return turn;
}

/** Inside a commit's transaction: the session no longer has this turn as its active one. */
function releaseActiveTurn(ctx: EngineContext, sessionId: string, turnId: string): void {
  const session = ctx.store.getSession(sessionId);
  if (session?.active_turn_id === turnId) ctx.store.setActiveTurn(sessionId, null);
}

/**
 * The last resort when a commit fails: after-states read without keeping their contents (so
 * little is written), the turn marked interrupted. What the turn did stays undoable; its
 * diffs lack the after side.
 */
export async function endTurnWithoutAfterContents(
  ctx: EngineContext,
  turnId: string,
  sessionId: string,
  alsoInTransaction?: () => void,
): Promise<void> {
  if (!ctx.turns.has(turnId)) {
    const row = ctx.store.getTurn(turnId);
    if (!row || row.status !== 'active') return;
    resumeTurn(ctx, row);
  }
  await commitTurn(
    ctx,
    turnId,
    true,
    () => {
      releaseActiveTurn(ctx, sessionId, turnId);
      alsoInTransaction?.();
    },
    { keepContents: false },
  );
  ctx.turns.delete(turnId);
  ctx.events.emit('turn-committed', { sessionId, turnId });
}

/**
 * Commits a turn: after-states from disk, summary, status `committed`; `alsoInTransaction`
 * lands with it or not at all (a rollback's statuses and messages).
 */
export async function endTurn(
  ctx: EngineContext,
  turnId: string,
  sessionId: string,
  interrupted = false,
  alsoInTransaction?: () => void,
): Promise<void> {
  await commitTurn(ctx, turnId, interrupted, () => {
    releaseActiveTurn(ctx, sessionId, turnId);
    ctx.store.touchSession(sessionId, ctx.now());
    alsoInTransaction?.();
  });
  // In the background, off the agent's path: packing the contents, checkpointing the WAL.
  ctx.housekeeping.schedule();
  ctx.turns.delete(turnId);
  ctx.events.emit('turn-committed', { sessionId, turnId });
}

/**
 * Commits a turn; when its commit fails (no space for the after-contents, a file that cannot
 * be read), commits it again keeping no contents, marked interrupted: a turn left active would
 * take the next edits for its own. Only when even that fails does the error reach the caller,
 * and the turn stays for the next attempt.
 */
export async function endTurnOrWithoutAfterContents(
  ctx: EngineContext,
  turnId: string,
  sessionId: string,
  interrupted = false,
  alsoInTransaction?: () => void,
): Promise<void> {
  try {
    await endTurn(ctx, turnId, sessionId, interrupted, alsoInTransaction);
  } catch (e) {
    const kind = ctx.turns.get(turnId)?.kind ?? ctx.store.getTurn(turnId)?.kind;
    ctx.log(
      `the commit of ${kind === 'rollback' ? 'rollback turn' : 'turn'} ${turnId} failed (${(e as Error).message}); committed without its after-contents, as interrupted`,
    );
    await endTurnWithoutAfterContents(ctx, turnId, sessionId, alsoInTransaction);
  }
}
