// The engine's metadata in SQLite (better-sqlite3, WAL): sessions, turn counters, turns,
// entries, per-path changes, messages and blob references. Synchronous and transactional.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Role, SessionOrigin, TurnKind, TurnStatus } from '../../protocol.js';
import { removeLegacyBlobDir } from './legacy-blobs.js';
import { StoreDamagedError } from '../errors.js';
import { Commands } from './commands.js';
import { migrate } from './schema.js';
import { packChange, packState, unpackChange, unpackState } from './record-codec.js';
import { CHECKPOINT_AT } from './store-upkeep.js';

export interface SessionRow {
  session_id: string;
  platform: string;
  session_type: string;
  last_activity: number;
  active_turn_id: string | null;
  origin: SessionOrigin;
}
export interface TurnRow {
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
  preview: string;
  undo: string | null;
  message_count?: number;
  /** 1 for a pin that retention keeps. */
  pinned?: number;
}
export interface EntryRow {
  turn_id: string;
  seq: number;
  op: string;
  uri: string;
  to_uri: string | null;
  before: string | null;
  after: string | null;
  to_before: string | null;
  to_after: string | null;
  skipped: string | null;
  to_skipped: string | null;
  exec_id: string | null;
  /** The host's step (tool call) and its chat line, when the host named one. */
  step_id: string | null;
  step_title: string | null;
}
export interface ChangeRow {
  turn_id: string;
  ord: number;
  uri: string;
  data: string;
}
export interface MessageRow {
  ord: number;
  id: string;
  session_id: string;
  turn_id: string | null;
  role: Role;
  content: string;
  ts: number;
  deleted_by: string | null;
}

type StoredEntryRow = Omit<EntryRow, 'before' | 'after' | 'to_before' | 'to_after'> &
  Record<'before' | 'after' | 'to_before' | 'to_after', Buffer | null>;
type StoredChangeRow = Omit<ChangeRow, 'data'> & { data: Buffer };

function entryFromRow(row: StoredEntryRow): EntryRow {
  return {
    ...row,
    before: unpackState(row.before),
    after: unpackState(row.after),
    to_before: unpackState(row.to_before),
    to_after: unpackState(row.to_after),
  };
}

const TURN_COLUMNS = `t.*, (SELECT COUNT(*) FROM messages m WHERE m.turn_id = t.turn_id AND m.deleted_by IS NULL) AS message_count`;

export class Store {
  readonly db: Database.Database;
  /** The turns' commands, a row each. */
  readonly commands = new Commands(this);
  private readonly statements = new Map<string, Database.Statement>();
  private readonly forgotten: string[] = [];
  /** When (performance.now()) the last transaction ran: how long the store has been idle. */
  lastWriteAt = performance.now();

  constructor(readonly file: string) {
    this.db = new Database(file);
    try {
      this.configure(file);
    } catch (e) {
      this.db.close();
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
        throw new StoreDamagedError(file, (e as Error).message);
      throw e;
    }
  }

  private configure(file: string): void {
    // Both take effect when the file is created. 4 KiB pages, the filesystem's block: 2 KiB
    // pages made the commander.js store 3% smaller, 1 and 8 KiB larger (bench item 10), not
    // worth writes below the block size. Incremental auto-vacuum lets the pages packed
    // contents free be given back (store-upkeep.ts).
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('page_size = 4096');
    this.db.pragma('journal_mode = WAL');
    // Relaxed by default; the transactions that must reach the disk before the code goes on
    // (a capture, before its mutation) say so (`transaction`).
    this.db.pragma('synchronous = NORMAL');
    // The WAL is checkpointed between turns once it passes CHECKPOINT_AT, and emptied when
    // the store is idle (store-upkeep.ts), off the agent's path; SQLite's own checkpoint,
    // which would land inside a capture, is only a backstop. When SQLite restarts the WAL, its
    // file is cut back to CHECKPOINT_AT, so it stays bounded after a large capture too.
    this.db.pragma('wal_autocheckpoint = 16384');
    this.db.pragma(`journal_size_limit = ${CHECKPOINT_AT}`);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('busy_timeout = 2000');
    // A damaged page is found here, once, rather than by whichever request reads it first.
    const check = this.db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreDamagedError(file, String(check));
    migrate(this.db, path.dirname(file));
    removeLegacyBlobDir(path.dirname(file));
  }

  /** A prepared statement, cached by its text. */
  st(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A transaction that reaches the disk before it returns (a full WAL sync), with every relaxed one before it. */
  transaction<T>(run: () => T): T {
    if (this.db.inTransaction) return run();
    this.lastWriteAt = performance.now();
    this.db.pragma('synchronous = FULL');
    try {
      return this.db.transaction(() => {
        this.dropForgotten();
        return run();
      })();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  /**
   * A transaction whose loss to a power cut is harmless (turn rows, messages, commits: recovery
   * redoes a lost commit from disk). It skips the WAL sync; the next full transaction carries
   * it to disk, since the WAL is sequential.
   */
  relaxed<T>(run: () => T): T {
    if (this.db.inTransaction) return run();
    this.lastWriteAt = performance.now();
    return this.db.transaction(() => {
      this.dropForgotten();
      return run();
    })();
  }

  close(): void {
    this.db.close();
  }

  // ---- sessions and counters ----

  // A session's origin only ever becomes `person`: the agent cannot take a person's session for its own.
  upsertSession(sessionId: string, platform: string, sessionType: string, now: number, origin: SessionOrigin): void {
    this.st(
      `INSERT INTO sessions (session_id, platform, session_type, last_activity, origin) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(session_id) DO UPDATE SET platform = excluded.platform, session_type = excluded.session_type, last_activity = excluded.last_activity,
      origin = CASE WHEN excluded.origin = 'person' THEN 'person' ELSE origin END`,
    ).run(sessionId, platform, sessionType, now, origin);
  }
  ensureSession(sessionId: string, now: number, origin: SessionOrigin): void {
    this.st(
      `INSERT INTO sessions (session_id, platform, session_type, last_activity, origin) VALUES (?, '', '', ?, ?)
      ON CONFLICT(session_id) DO UPDATE SET last_activity = excluded.last_activity,
      origin = CASE WHEN excluded.origin = 'person' THEN 'person' ELSE origin END`,
    ).run(sessionId, now, origin);
  }
  /** A person acted in the session (a rollback): from now on it is theirs. */
  claimSession(sessionId: string): void {
    this.st("UPDATE sessions SET origin = 'person' WHERE session_id = ?").run(sessionId);
  }
  touchSession(sessionId: string, now: number): void {
    this.st('UPDATE sessions SET last_activity = ? WHERE session_id = ?').run(now, sessionId);
  }
  getSession(sessionId: string): SessionRow | undefined {
    return this.st('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as SessionRow | undefined;
  }
  listSessions(): (SessionRow & { turn_count: number; title: string | null })[] {
    return this.st(
      `SELECT s.*, (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.session_id) AS turn_count,
      (SELECT t.title FROM turns t WHERE t.session_id = s.session_id AND t.kind = 'agent' ORDER BY t.number LIMIT 1) AS title
      FROM sessions s ORDER BY s.last_activity DESC, s.session_id`,
    ).all() as (SessionRow & { turn_count: number; title: string | null })[];
  }
  setActiveTurn(sessionId: string, turnId: string | null): void {
    this.st('UPDATE sessions SET active_turn_id = ? WHERE session_id = ?').run(turnId, sessionId);
  }
  nextNumber(sessionId: string): number {
    const row = this.st(
      `INSERT INTO counters (session_id, last_number) VALUES (?, 1)
      ON CONFLICT(session_id) DO UPDATE SET last_number = last_number + 1 RETURNING last_number`,
    ).get(sessionId) as { last_number: number };
    return row.last_number;
  }
  /** Drops a session's rows; its counter stays so numbers are never reused. */
  deleteSessionRows(sessionId: string): string[] {
    const turnIds = (
      this.st('SELECT turn_id FROM turns WHERE session_id = ?').all(sessionId) as { turn_id: string }[]
    ).map((r) => r.turn_id);
    for (const turnId of turnIds) {
      this.st('DELETE FROM entries WHERE turn_id = ?').run(turnId);
      this.st('DELETE FROM changes WHERE turn_id = ?').run(turnId);
      this.st('DELETE FROM blob_refs WHERE turn_id = ?').run(turnId);
      this.commands.removeTurn(turnId);
    }
    this.st('DELETE FROM turns WHERE session_id = ?').run(sessionId);
    this.st('DELETE FROM messages WHERE session_id = ?').run(sessionId);
    this.st('DELETE FROM sessions WHERE session_id = ?').run(sessionId);
    return turnIds;
  }

  /** Drops a turn that changed nothing (a rollback that did nothing); its number is never reused. */
  dropTurn(turnId: string): void {
    this.st('DELETE FROM entries WHERE turn_id = ?').run(turnId);
    this.st('DELETE FROM changes WHERE turn_id = ?').run(turnId);
    this.st('DELETE FROM blob_refs WHERE turn_id = ?').run(turnId);
    this.st('UPDATE messages SET turn_id = NULL WHERE turn_id = ?').run(turnId);
    this.st('DELETE FROM turns WHERE turn_id = ?').run(turnId);
  }

  // ---- turns ----

  insertTurn(row: Omit<TurnRow, 'message_count'>): void {
    this.st(
      `INSERT INTO turns (turn_id, session_id, number, kind, rollback_of, title, status, rolled_back_by, interrupted,
      started_at, ended_at, counts, preview, undo) VALUES (@turn_id, @session_id, @number, @kind, @rollback_of,
      @title, @status, @rolled_back_by, @interrupted, @started_at, @ended_at, @counts, @preview, @undo)`,
    ).run(row);
  }
  getTurn(turnId: string): TurnRow | undefined {
    return this.st(`SELECT ${TURN_COLUMNS} FROM turns t WHERE t.turn_id = ?`).get(turnId) as TurnRow | undefined;
  }
  listTurns(sessionId: string, limit: number, before: number): TurnRow[] {
    const rows = this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? AND t.number < ?
      ORDER BY t.number DESC LIMIT ?`,
    ).all(sessionId, before, limit) as TurnRow[];
    return rows.reverse();
  }
  /** Every turn of the workspace that has ended, every session's, in the order they began. */
  endedTurnsInOrder(): TurnRow[] {
    return this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.status <> 'active' ORDER BY t.started_at, t.rowid`,
    ).all() as TurnRow[];
  }
  turnsFrom(sessionId: string, fromNumber: number): TurnRow[] {
    return this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? AND t.number >= ? ORDER BY t.number`,
    ).all(sessionId, fromNumber) as TurnRow[];
  }
  /** The newest rollback turn of these turns that a crash cut short. */
  interruptedRollbackOf(sessionId: string, rollbackOf: string): TurnRow | undefined {
    return this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = ? AND t.kind = 'rollback'
      AND t.interrupted = 1 AND t.rollback_of = ? ORDER BY t.number DESC LIMIT 1`,
    ).get(sessionId, rollbackOf) as TurnRow | undefined;
  }
  activeTurns(): TurnRow[] {
    return this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.status = 'active' ORDER BY t.started_at`,
    ).all() as TurnRow[];
  }
  /** The SQL half of a commit: status committed (unless already rolled back), end time, counts, preview. */
  markCommitted(turnId: string, endedAt: number, counts: string, preview: string, interrupted: boolean): void {
    this.st(
      `UPDATE turns SET status = CASE WHEN status = 'active' THEN 'committed' ELSE status END, ended_at = ?,
      counts = ?, preview = ?, interrupted = ? WHERE turn_id = ?`,
    ).run(endedAt, counts, preview, interrupted ? 1 : 0, turnId);
  }
  setStatus(turnId: string, status: TurnStatus, rolledBackBy: string | null): void {
    this.st('UPDATE turns SET status = ?, rolled_back_by = ? WHERE turn_id = ?').run(status, rolledBackBy, turnId);
  }
  setUndo(turnId: string, json: string): void {
    this.st('UPDATE turns SET undo = ? WHERE turn_id = ?').run(json, turnId);
  }
  setPinned(turnId: string, pinned: boolean): void {
    this.st('UPDATE turns SET pinned = ? WHERE turn_id = ?').run(pinned ? 1 : 0, turnId);
  }
  /** The pins retention keeps, oldest first. */
  pinnedTurns(): TurnRow[] {
    return this.st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.kind = 'pin' AND t.pinned = 1 ORDER BY t.started_at, t.rowid`,
    ).all() as TurnRow[];
  }
  /** Turns begun after `time` that are still being recorded, any session. */
  activeTurnsSince(time: number): TurnRow[] {
    return this.st(`SELECT ${TURN_COLUMNS} FROM turns t WHERE t.status = 'active' AND t.started_at >= ?`).all(
      time,
    ) as TurnRow[];
  }
  anySessionIdleBefore(time: number): boolean {
    return this.st('SELECT 1 FROM sessions WHERE last_activity < ? LIMIT 1').get(time) !== undefined;
  }
  countTurns(): number {
    return (this.st('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
  }
  countSessions(): number {
    return (this.st('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  }

  // ---- entries and changes ----

  // Entries and changes keep their states compact (record-codec.ts); the rows this class
  // answers carry them as JSON, as the rest of the engine reads them.
  insertEntry(row: EntryRow): void {
    this.st(
      `INSERT INTO entries (turn_id, seq, op, uri, to_uri, before, after, to_before, to_after, skipped, to_skipped, exec_id, step_id, step_title)
      VALUES (@turn_id, @seq, @op, @uri, @to_uri, @before, @after, @to_before, @to_after, @skipped, @to_skipped, @exec_id, @step_id, @step_title)`,
    ).run({
      ...row,
      before: packState(row.before),
      after: packState(row.after),
      to_before: packState(row.to_before),
      to_after: packState(row.to_after),
    });
  }
  entriesOf(turnId: string): EntryRow[] {
    return (this.st('SELECT * FROM entries WHERE turn_id = ? ORDER BY seq').all(turnId) as StoredEntryRow[]).map(
      entryFromRow,
    );
  }
  maxSeq(turnId: string): number {
    return (this.st('SELECT COALESCE(MAX(seq), 0) AS n FROM entries WHERE turn_id = ?').get(turnId) as { n: number }).n;
  }
  updateEntryAfter(turnId: string, seq: number, after: string | null, toAfter: string | null): void {
    this.st('UPDATE entries SET after = ?, to_after = ? WHERE turn_id = ? AND seq = ?').run(
      packState(after),
      packState(toAfter),
      turnId,
      seq,
    );
  }
  deleteEntry(turnId: string, seq: number): void {
    this.st('DELETE FROM entries WHERE turn_id = ? AND seq = ?').run(turnId, seq);
  }
  replaceChanges(turnId: string, changes: { uri: string; data: string }[]): void {
    this.st('DELETE FROM changes WHERE turn_id = ?').run(turnId);
    const insert = this.st('INSERT INTO changes (turn_id, ord, uri, data) VALUES (?, ?, ?, ?)');
    changes.forEach((c, i) => insert.run(turnId, i, c.uri, packChange(c.data, c.uri)));
  }
  changesOf(turnId: string): ChangeRow[] {
    return (
      this.st('SELECT turn_id, ord, uri, data FROM changes WHERE turn_id = ? ORDER BY ord').all(
        turnId,
      ) as StoredChangeRow[]
    ).map((r) => ({ ...r, data: unpackChange(r.data, r.uri) }));
  }

  // ---- messages ----

  insertMessage(row: Omit<MessageRow, 'ord' | 'deleted_by'>): void {
    this.st(
      'INSERT INTO messages (id, session_id, turn_id, role, content, ts) VALUES (@id, @session_id, @turn_id, @role, @content, @ts)',
    ).run(row);
  }
  listMessages(sessionId: string, turnId: string | undefined, before: number | undefined, limit: number): MessageRow[] {
    const rows = this.st(
      `SELECT * FROM messages WHERE session_id = @sessionId AND deleted_by IS NULL
      AND (@turnId IS NULL OR turn_id = @turnId) AND (@before IS NULL OR ts < @before) ORDER BY ord DESC LIMIT @limit`,
    ).all({ sessionId, turnId: turnId ?? null, before: before ?? null, limit }) as MessageRow[];
    return rows.reverse();
  }
  liveMessagesOfTurns(turnIds: string[]): MessageRow[] {
    const select = this.st('SELECT * FROM messages WHERE turn_id = ? AND deleted_by IS NULL ORDER BY ord');
    return turnIds.flatMap((id) => select.all(id) as MessageRow[]).sort((a, b) => a.ord - b.ord);
  }
  liveMessagesFrom(sessionId: string, fromOrd: number): MessageRow[] {
    return this.st('SELECT * FROM messages WHERE session_id = ? AND ord >= ? AND deleted_by IS NULL ORDER BY ord').all(
      sessionId,
      fromOrd,
    ) as MessageRow[];
  }
  firstMessageOrd(turnId: string): number | undefined {
    return (
      (this.st('SELECT MIN(ord) AS o FROM messages WHERE turn_id = ?').get(turnId) as { o: number | null }).o ??
      undefined
    );
  }
  messageDeletedBy(id: string): string | null | undefined {
    const row = this.st('SELECT deleted_by FROM messages WHERE id = ?').get(id) as
      { deleted_by: string | null } | undefined;
    return row ? row.deleted_by : undefined;
  }
  markMessagesDeleted(ids: string[], by: string): void {
    const update = this.st('UPDATE messages SET deleted_by = ? WHERE id = ?');
    for (const id of ids) update.run(by, id);
  }
  restoreMessages(ids: string[]): MessageRow[] {
    const update = this.st('UPDATE messages SET deleted_by = NULL WHERE id = ?');
    for (const id of ids) update.run(id);
    const select = this.st('SELECT * FROM messages WHERE id = ?');
    return ids
      .map((id) => select.get(id) as MessageRow | undefined)
      .filter((m): m is MessageRow => !!m)
      .sort((a, b) => a.ord - b.ord);
  }

  // ---- workspace temp files in flight ----

  addPendingTemp(path: string): void {
    this.relaxed(() => this.st('INSERT OR IGNORE INTO pending_temps (path) VALUES (?)').run(path));
  }
  removePendingTemp(path: string): void {
    this.relaxed(() => this.st('DELETE FROM pending_temps WHERE path = ?').run(path));
  }
  /**
   * A temp file that is gone now (renamed into place): its row is dropped with the next
   * transaction, not in one of its own. A row left by a crash is harmless: recovery only
   * removes a file that still carries the temp prefix.
   */
  forgetPendingTemp(path: string): void {
    this.forgotten.push(path);
  }
  private dropForgotten(): void {
    for (const path of this.forgotten.splice(0)) this.st('DELETE FROM pending_temps WHERE path = ?').run(path);
  }
  pendingTemps(): string[] {
    return (this.st('SELECT path FROM pending_temps').all() as { path: string }[]).map((r) => r.path);
  }

  // ---- content references ----

  addRef(hash: string, turnId: string): void {
    // By the hash's bytes. What is not hex (unhex gives NULL) names no content: OR IGNORE drops it.
    this.st('INSERT OR IGNORE INTO blob_refs (hash, turn_id) VALUES (unhex(?), ?)').run(hash, turnId);
  }
  clearRefs(turnId: string): void {
    this.st('DELETE FROM blob_refs WHERE turn_id = ?').run(turnId);
  }
}

// ---- search (console): turns by prompt text or path, in SQL so it scales with the store ----

export interface TurnSearch {
  sessionId: string;
  text: string;
  limit: number;
  before: number;
}

/** Turns of a session whose title, user prompt, a command or a changed path holds `text` (any case), oldest first. */
export function searchTurnRows(store: Store, { sessionId, text, limit, before }: TurnSearch): TurnRow[] {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = store
    .st(
      `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.session_id = @sessionId AND t.number < @before AND (
      lower(t.title) LIKE @pattern ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM commands x WHERE x.turn_id = t.turn_id AND lower(x.command) LIKE @pattern ESCAPE '\\')
      OR EXISTS (SELECT 1 FROM messages m WHERE m.turn_id = t.turn_id AND m.role = 'user' AND lower(m.content) LIKE @pattern ESCAPE '\\')
      OR EXISTS (SELECT 1 FROM changes c WHERE c.turn_id = t.turn_id AND lower(c.uri) LIKE @pattern ESCAPE '\\'))
    ORDER BY t.number DESC LIMIT @limit`,
    )
    .all({ sessionId, before, limit, pattern }) as TurnRow[];
  return rows.reverse();
}
