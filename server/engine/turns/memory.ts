// The memory store: chat messages per session, each tied to the turn active when it was
// appended. Deleting marks a message with the rollback turn that deleted it, so undoing that
// turn brings it back with the same id at the same place.
import type { Message, Role } from '../../protocol.js';
import type { Messages, StoredMessage } from '../db/messages.js';
import { newId } from '../ids.js';

/** What the message calls touch: the messages' table and the clock. */
export interface MessageDeps {
  store: { messages: Messages };
  now(): number;
}

export function toMessage(row: StoredMessage): Message {
  return {
    id: row.id,
    sessionId: row.sessionId,
    turnId: row.turnId,
    role: row.role,
    content: row.content,
    ts: row.ts,
  };
}

export function appendMessage(
  ctx: MessageDeps,
  sessionId: string,
  turnId: string | null,
  role: Role,
  content: string,
): string {
  const id = newId('m_');
  ctx.store.messages.insert({ id, sessionId, turnId, role, content, ts: ctx.now() });
  return id;
}

/** Marks live messages deleted by `by`; answers the ids actually deleted. */
export function deleteMessages(ctx: MessageDeps, ids: string[], by: string): string[] {
  ctx.store.messages.markDeleted(ids, by);
  return ids;
}

/** Brings deleted messages back; answers their ids in their original order. */
export function restoreMessages(ctx: MessageDeps, ids: string[]): string[] {
  return ctx.store.messages.restore(ids).map((m) => m.id);
}

export function listMessages(
  ctx: MessageDeps,
  sessionId: string,
  opts: { turnId?: string; limit?: number; before?: number } = {},
): Message[] {
  const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
  return ctx.store.messages.list(sessionId, opts.turnId, opts.before, limit).map(toMessage);
}
