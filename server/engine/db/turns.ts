// The `turns` table: a turn's number, kind, status and times, and its JSON columns (the counts
// its commit wrote, the turns a rollback covers, a rollback's undo record), read and written
// here alone. Its entries and changes (which its preview is read from) live in entries.ts.
import type { FileChange, TurnKind, TurnStatus } from '../../protocol.js';
import type { Statements } from './statements.js';
import { parseChange } from './entries.js';

/** Per root: what a commit counted (the turn listing sums the tracked roots). */
export interface TurnCounts {
  [root: string]: { files: number; skipped: number; added?: number; removed?: number; renames?: number };
}

/** What a rollback changed besides files, so that undoing it puts the rest back as it was. */
export interface UndoRecord {
  statuses: Record<string, { status: TurnStatus; rolledBackBy: string | null }>;
  deletedMessages: string[];
  restoredMessages: string[];
}

/** A turn of another workspace made under the same prompt, named by that workspace's real root. */
export interface TurnLink {
  root: string;
  turnId: string;
}

export interface StoredTurn {
  turnId: string;
  sessionId: string;
  number: number;
  kind: TurnKind;
  /** The turns a rollback turn covers (null for any other turn). */
  rollbackOf: string[] | null;
  title: string;
  status: TurnStatus;
  rolledBackBy: string | null;
  interrupted: boolean;
  startedAt: number;
  endedAt: number | null;
  counts: TurnCounts;
  undo: UndoRecord | null;
  /** Turns of other sessions that changed files while this one was active (null: none). */
  concurrent: string[] | null;
  /** The same prompt's turns in other workspaces, by their real root (null: none). */
  linked: TurnLink[] | null;
  /** The turn's messages not taken back by a rollback. */
  messageCount: number;
  /** A pin that retention keeps. */
  pinned: boolean;
}

/** A turn as begun: what its commit and rollbacks fill in later starts empty. */
export type NewTurn = Pick<
  StoredTurn,
  'turnId' | 'sessionId' | 'number' | 'kind' | 'rollbackOf' | 'title' | 'startedAt'
>;

interface TurnColumns {
  turn_id: string;
  session_id: string;
  number: number;
  kind: TurnKind;
  rollback_of: string | null;
  title: string;
  status: TurnStatus;
  rolled_back_by: string | null;
  interrupted: number;
  started_at: number;
  ended_at: number | null;
  counts: string;
  undo: string | null;
  concurrent: string | null;
  linked: string | null;
  message_count: number;
  pinned: number | null;
}

function toTurn(row: TurnColumns): StoredTurn {
  return {
    turnId: row.turn_id,
    sessionId: row.session_id,
    number: row.number,
    kind: row.kind,
    rollbackOf: row.rollback_of ? (JSON.parse(row.rollback_of) as string[]) : null,
    title: row.title,
    status: row.status,
    rolledBackBy: row.rolled_back_by,
    interrupted: row.interrupted === 1,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    counts: JSON.parse(row.counts) as TurnCounts,
    undo: row.undo ? (JSON.parse(row.undo) as UndoRecord) : null,
    concurrent: row.concurrent ? (JSON.parse(row.concurrent) as string[]) : null,
    linked: row.linked ? (JSON.parse(row.linked) as TurnLink[]) : null,
    messageCount: row.message_count,
    pinned: row.pinned === 1,
  };
}

const COLUMNS = `t.*, (SELECT COUNT(*) FROM messages m WHERE m.turn_id = t.turn_id AND m.deleted_by IS NULL) AS message_count`;

export interface TurnSearch {
  sessionId: string;
  text: string;
  limit: number;
  before: number;
}

/** A later turn's change of a path, as conflict authorship reads it. */
export interface LaterChange {
  uri: string;
  turnId: string;
  sessionId: string;
  number: number;
  title: string;
  change: FileChange;
}

export class Turns {
  constructor(private readonly store: Statements) {}

  private one(sql: string, ...params: unknown[]): StoredTurn | undefined {
    const row = this.store.st(sql).get(...params) as TurnColumns | undefined;
    return row && toTurn(row);
  }

  private many(sql: string, ...params: unknown[]): StoredTurn[] {
    return (this.store.st(sql).all(...params) as TurnColumns[]).map(toTurn);
  }

  insert(turn: NewTurn): void {
    this.store
      .st(
        `INSERT INTO turns (turn_id, session_id, number, kind, rollback_of, title, status, rolled_back_by, interrupted,
      started_at, ended_at, counts, undo) VALUES (?, ?, ?, ?, ?, ?, 'active', NULL, 0, ?, NULL, '{}', NULL)`,
      )
      .run(
        turn.turnId,
        turn.sessionId,
        turn.number,
        turn.kind,
        turn.rollbackOf ? JSON.stringify(turn.rollbackOf) : null,
        turn.title,
        turn.startedAt,
      );
  }

  get(turnId: string): StoredTurn | undefined {
    return this.one(`SELECT ${COLUMNS} FROM turns t WHERE t.turn_id = ?`, turnId);
  }

  /** Up to `limit` turns of the session numbered below `before`, oldest first. */
  list(sessionId: string, limit: number, before: number): StoredTurn[] {
    return this.many(
      `SELECT ${COLUMNS} FROM turns t WHERE t.session_id = ? AND t.number < ?
      ORDER BY t.number DESC LIMIT ?`,
      sessionId,
      before,
      limit,
    ).reverse();
  }

  /** The ids of the session's turns numbered below `number`, newest first, `limit` at most. */
  earlierIds(sessionId: string, number: number, limit: number): string[] {
    return (
      this.store
        .st('SELECT turn_id FROM turns WHERE session_id = ? AND number < ? ORDER BY number DESC LIMIT ?')
        .all(sessionId, number, limit) as { turn_id: string }[]
    ).map((r) => r.turn_id);
  }

  idsOfSession(sessionId: string): string[] {
    return (
      this.store.st('SELECT turn_id FROM turns WHERE session_id = ?').all(sessionId) as { turn_id: string }[]
    ).map((r) => r.turn_id);
  }

  /** Every turn of the workspace that has ended, every session's, in the order they began. */
  endedInOrder(): StoredTurn[] {
    return this.many(`SELECT ${COLUMNS} FROM turns t WHERE t.status <> 'active' ORDER BY t.started_at, t.rowid`);
  }

  from(sessionId: string, fromNumber: number): StoredTurn[] {
    return this.many(
      `SELECT ${COLUMNS} FROM turns t WHERE t.session_id = ? AND t.number >= ? ORDER BY t.number`,
      sessionId,
      fromNumber,
    );
  }

  /** The newest rollback turn of these turns that a crash cut short. */
  interruptedRollbackOf(sessionId: string, rollbackOf: string[]): StoredTurn | undefined {
    return this.one(
      `SELECT ${COLUMNS} FROM turns t WHERE t.session_id = ? AND t.kind = 'rollback'
      AND t.interrupted = 1 AND t.rollback_of = ? ORDER BY t.number DESC LIMIT 1`,
      sessionId,
      JSON.stringify(rollbackOf),
    );
  }

  active(): StoredTurn[] {
    return this.many(`SELECT ${COLUMNS} FROM turns t WHERE t.status = 'active' ORDER BY t.started_at`);
  }

  /** Turns begun after `time` that are still being recorded, any session. */
  activeSince(time: number): StoredTurn[] {
    return this.many(`SELECT ${COLUMNS} FROM turns t WHERE t.status = 'active' AND t.started_at >= ?`, time);
  }

  /** The pins retention keeps, oldest first. */
  pinned(): StoredTurn[] {
    return this.many(
      `SELECT ${COLUMNS} FROM turns t WHERE t.kind = 'pin' AND t.pinned = 1 ORDER BY t.started_at, t.rowid`,
    );
  }

  /** The SQL half of a commit: status committed (unless already rolled back), end time, counts. */
  markCommitted(turnId: string, endedAt: number, counts: TurnCounts, interrupted: boolean): void {
    this.store
      .st(
        `UPDATE turns SET status = CASE WHEN status = 'active' THEN 'committed' ELSE status END, ended_at = ?,
      counts = ?, interrupted = ? WHERE turn_id = ?`,
      )
      .run(endedAt, JSON.stringify(counts), interrupted ? 1 : 0, turnId);
  }

  setStatus(turnId: string, status: TurnStatus, rolledBackBy: string | null): void {
    this.store
      .st('UPDATE turns SET status = ?, rolled_back_by = ? WHERE turn_id = ?')
      .run(status, rolledBackBy, turnId);
  }

  /** Notes on an active turn that `byTurnId`, of another session, changed files meanwhile. */
  addConcurrent(turnId: string, byTurnId: string): void {
    const row = this.store.st('SELECT concurrent FROM turns WHERE turn_id = ?').get(turnId) as
      { concurrent: string | null } | undefined;
    if (!row) return;
    const ids = row.concurrent ? (JSON.parse(row.concurrent) as string[]) : [];
    if (ids.includes(byTurnId)) return;
    this.store.st('UPDATE turns SET concurrent = ? WHERE turn_id = ?').run(JSON.stringify([...ids, byTurnId]), turnId);
  }

  /** Links the turn to `link`, the same prompt's turn in another workspace (once). */
  addLink(turnId: string, link: TurnLink): void {
    const row = this.store.st('SELECT linked FROM turns WHERE turn_id = ?').get(turnId) as
      { linked: string | null } | undefined;
    if (!row) return;
    const links = row.linked ? (JSON.parse(row.linked) as TurnLink[]) : [];
    if (links.some((l) => l.root === link.root && l.turnId === link.turnId)) return;
    this.store.st('UPDATE turns SET linked = ? WHERE turn_id = ?').run(JSON.stringify([...links, link]), turnId);
  }

  setUndo(turnId: string, undo: UndoRecord): void {
    this.store.st('UPDATE turns SET undo = ? WHERE turn_id = ?').run(JSON.stringify(undo), turnId);
  }

  setPinned(turnId: string, pinned: boolean): void {
    this.store.st('UPDATE turns SET pinned = ? WHERE turn_id = ?').run(pinned ? 1 : 0, turnId);
  }

  count(): number {
    return (this.store.st('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
  }

  /** Drops the turn's own row (its entries, changes and references go with `Store.dropTurn`). */
  remove(turnId: string): void {
    this.store.st('UPDATE messages SET turn_id = NULL WHERE turn_id = ?').run(turnId);
    this.store.st('DELETE FROM turns WHERE turn_id = ?').run(turnId);
  }

  removeSession(sessionId: string): void {
    this.store.st('DELETE FROM turns WHERE session_id = ?').run(sessionId);
  }

  /** Turns of a session whose title, user prompt, a command or a changed path holds `text` (any case), oldest first. */
  search({ sessionId, text, limit, before }: TurnSearch): StoredTurn[] {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.store
      .st(
        `SELECT ${COLUMNS} FROM turns t WHERE t.session_id = @sessionId AND t.number < @before AND (
      lower(t.title) LIKE @pattern ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM commands x WHERE x.turn_id = t.turn_id AND lower(x.command) LIKE @pattern ESCAPE '\\')
      OR EXISTS (SELECT 1 FROM messages m WHERE m.turn_id = t.turn_id AND m.role = 'user' AND lower(m.content) LIKE @pattern ESCAPE '\\')
      OR EXISTS (SELECT 1 FROM changes c WHERE c.turn = t.id AND lower(c.uri) LIKE @pattern ESCAPE '\\'))
    ORDER BY t.number DESC LIMIT @limit`,
      )
      .all({ sessionId, before, limit, pattern }) as TurnColumns[];
    return rows.map(toTurn).reverse();
  }

  /**
   * Each of these paths' latest change by a turn begun at or after `since` and not among
   * `excluded`, any session's, from one query for them all.
   */
  latestChangesSince(uris: string[], since: number, excluded: string[]): LaterChange[] {
    const rows = this.store
      .st(
        `SELECT uri, turn_id, session_id, number, title, data FROM (
      SELECT c.uri, t.turn_id, t.session_id, t.number, t.title, c.data,
        ROW_NUMBER() OVER (PARTITION BY c.uri ORDER BY t.started_at DESC, t.number DESC) AS latest
      FROM changes c JOIN turns t ON t.id = c.turn
      WHERE c.uri IN (SELECT value FROM json_each(?)) AND t.started_at >= ? AND t.turn_id NOT IN (SELECT value FROM json_each(?)))
    WHERE latest = 1`,
      )
      .all(JSON.stringify(uris), since, JSON.stringify(excluded)) as {
      uri: string;
      turn_id: string;
      session_id: string;
      number: number;
      title: string;
      data: Buffer;
    }[];
    return rows.map((r) => ({
      uri: r.uri,
      turnId: r.turn_id,
      sessionId: r.session_id,
      number: r.number,
      title: r.title,
      change: parseChange(r.data, r.uri),
    }));
  }
}
