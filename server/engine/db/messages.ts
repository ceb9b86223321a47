// The `messages` table: a session's chat, each line tied to the turn it came in, and taken
// back (`deleted_by`) by the rollback that rewound it.
import type { Role } from '../../protocol.js';
import type { Statements } from './statements.js';

export interface StoredMessage {
  /** Insertion order, across the workspace. */
  ord: number;
  id: string;
  sessionId: string;
  turnId: string | null;
  role: Role;
  content: string;
  ts: number;
  deletedBy: string | null;
}

export type NewMessage = Pick<StoredMessage, 'id' | 'sessionId' | 'turnId' | 'role' | 'content' | 'ts'>;

interface MessageColumns {
  ord: number;
  id: string;
  session_id: string;
  turn_id: string | null;
  role: Role;
  content: string;
  ts: number;
  deleted_by: string | null;
}

function toMessage(row: MessageColumns): StoredMessage {
  return {
    ord: row.ord,
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    role: row.role,
    content: row.content,
    ts: row.ts,
    deletedBy: row.deleted_by,
  };
}

export class Messages {
  constructor(private readonly store: Statements) {}

  insert(message: NewMessage): void {
    this.store
      .st('INSERT INTO messages (id, session_id, turn_id, role, content, ts) VALUES (?, ?, ?, ?, ?, ?)')
      .run(message.id, message.sessionId, message.turnId, message.role, message.content, message.ts);
  }

  /** Up to `limit` live messages of the session (of one turn, before a time), oldest first. */
  list(sessionId: string, turnId: string | undefined, before: number | undefined, limit: number): StoredMessage[] {
    const rows = this.store
      .st(
        `SELECT * FROM messages WHERE session_id = @sessionId AND deleted_by IS NULL
      AND (@turnId IS NULL OR turn_id = @turnId) AND (@before IS NULL OR ts < @before) ORDER BY ord DESC LIMIT @limit`,
      )
      .all({ sessionId, turnId: turnId ?? null, before: before ?? null, limit }) as MessageColumns[];
    return rows.map(toMessage).reverse();
  }

  liveOfTurns(turnIds: string[]): StoredMessage[] {
    const select = this.store.st('SELECT * FROM messages WHERE turn_id = ? AND deleted_by IS NULL ORDER BY ord');
    return turnIds
      .flatMap((id) => select.all(id) as MessageColumns[])
      .map(toMessage)
      .sort((a, b) => a.ord - b.ord);
  }

  liveFrom(sessionId: string, fromOrd: number): StoredMessage[] {
    return (
      this.store
        .st('SELECT * FROM messages WHERE session_id = ? AND ord >= ? AND deleted_by IS NULL ORDER BY ord')
        .all(sessionId, fromOrd) as MessageColumns[]
    ).map(toMessage);
  }

  firstOrd(turnId: string): number | undefined {
    return (
      (this.store.st('SELECT MIN(ord) AS o FROM messages WHERE turn_id = ?').get(turnId) as { o: number | null }).o ??
      undefined
    );
  }

  /** Which rollback took the message back (null: none); undefined when there is no such message. */
  deletedBy(id: string): string | null | undefined {
    const row = this.store.st('SELECT deleted_by FROM messages WHERE id = ?').get(id) as
      { deleted_by: string | null } | undefined;
    return row ? row.deleted_by : undefined;
  }

  markDeleted(ids: string[], by: string): void {
    const update = this.store.st('UPDATE messages SET deleted_by = ? WHERE id = ?');
    for (const id of ids) update.run(by, id);
  }

  restore(ids: string[]): StoredMessage[] {
    const update = this.store.st('UPDATE messages SET deleted_by = NULL WHERE id = ?');
    for (const id of ids) update.run(id);
    const select = this.store.st('SELECT * FROM messages WHERE id = ?');
    return ids
      .map((id) => select.get(id) as MessageColumns | undefined)
      .filter((m): m is MessageColumns => !!m)
      .map(toMessage)
      .sort((a, b) => a.ord - b.ord);
  }
}
