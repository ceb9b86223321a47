// The `sessions` table and each session's turn counter: who a session belongs to, when it was
// last active, and the agent turn it is recording (its `active_turn_id`).
import type { SessionOrigin } from '../../protocol.js';
import type { Statements } from './statements.js';

export interface StoredSession {
  sessionId: string;
  platform: string;
  sessionType: string;
  lastActivity: number;
  activeTurnId: string | null;
  origin: SessionOrigin;
}

/** A session as listed: with how many turns it has and the title of its first agent turn. */
export interface ListedSession extends StoredSession {
  turnCount: number;
  title: string | null;
}

interface SessionColumns {
  session_id: string;
  platform: string;
  session_type: string;
  last_activity: number;
  active_turn_id: string | null;
  origin: SessionOrigin;
}

function toSession(row: SessionColumns): StoredSession {
  return {
    sessionId: row.session_id,
    platform: row.platform,
    sessionType: row.session_type,
    lastActivity: row.last_activity,
    activeTurnId: row.active_turn_id,
    origin: row.origin,
  };
}

export class Sessions {
  constructor(private readonly store: Statements) {}

  // A session's origin only ever becomes `person`: the agent cannot take a person's session for its own.
  upsert(sessionId: string, platform: string, sessionType: string, now: number, origin: SessionOrigin): void {
    this.store
      .st(
        `INSERT INTO sessions (session_id, platform, session_type, last_activity, origin) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(session_id) DO UPDATE SET platform = excluded.platform, session_type = excluded.session_type, last_activity = excluded.last_activity,
      origin = CASE WHEN excluded.origin = 'person' THEN 'person' ELSE origin END`,
      )
      .run(sessionId, platform, sessionType, now, origin);
  }

  ensure(sessionId: string, now: number, origin: SessionOrigin): void {
    this.store
      .st(
        `INSERT INTO sessions (session_id, platform, session_type, last_activity, origin) VALUES (?, '', '', ?, ?)
      ON CONFLICT(session_id) DO UPDATE SET last_activity = excluded.last_activity,
      origin = CASE WHEN excluded.origin = 'person' THEN 'person' ELSE origin END`,
      )
      .run(sessionId, now, origin);
  }

  /** A person acted in the session (a rollback): from now on it is theirs. */
  claim(sessionId: string): void {
    this.store.st("UPDATE sessions SET origin = 'person' WHERE session_id = ?").run(sessionId);
  }

  touch(sessionId: string, now: number): void {
    this.store.st('UPDATE sessions SET last_activity = ? WHERE session_id = ?').run(now, sessionId);
  }

  get(sessionId: string): StoredSession | undefined {
    const row = this.store.st('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as
      SessionColumns | undefined;
    return row && toSession(row);
  }

  /** Every session, the most recently active first. */
  list(): ListedSession[] {
    const rows = this.store
      .st(
        `SELECT s.*, (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.session_id) AS turn_count,
      (SELECT t.title FROM turns t WHERE t.session_id = s.session_id AND t.kind = 'agent' ORDER BY t.number LIMIT 1) AS title
      FROM sessions s ORDER BY s.last_activity DESC, s.session_id`,
      )
      .all() as (SessionColumns & { turn_count: number; title: string | null })[];
    return rows.map((row) => ({ ...toSession(row), turnCount: row.turn_count, title: row.title }));
  }

  setActiveTurn(sessionId: string, turnId: string | null): void {
    this.store.st('UPDATE sessions SET active_turn_id = ? WHERE session_id = ?').run(turnId, sessionId);
  }

  /** The session's next turn number; numbers are never reused, even after the session's rows are dropped. */
  nextNumber(sessionId: string): number {
    const row = this.store
      .st(
        `INSERT INTO counters (session_id, last_number) VALUES (?, 1)
      ON CONFLICT(session_id) DO UPDATE SET last_number = last_number + 1 RETURNING last_number`,
      )
      .get(sessionId) as { last_number: number };
    return row.last_number;
  }

  anyIdleBefore(time: number): boolean {
    return this.store.st('SELECT 1 FROM sessions WHERE last_activity < ? LIMIT 1').get(time) !== undefined;
  }

  count(): number {
    return (this.store.st('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  }

  /** Drops the session's own row and its messages (its turns are dropped by `Turns.dropSession`). */
  remove(sessionId: string): void {
    this.store.st('DELETE FROM messages WHERE session_id = ?').run(sessionId);
    this.store.st('DELETE FROM sessions WHERE session_id = ?').run(sessionId);
  }
}
