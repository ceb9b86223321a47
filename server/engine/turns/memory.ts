// The memory store: chat messages per session, each tied to the turn active when it was
// appended. Deleting marks a message with the rollback turn that deleted it, so undoing that
// turn brings it back with the same id at the same place.
import type { Message, Role } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import type { MessageRow } from '../db/store.js';
import { newId } from '../ids.js';

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    role: row.role,
    content: row.content,
    ts: row.ts,
  };
}

export function appendMessage(
  ctx: EngineContext,
  sessionId: string,
  turnId: string | null,
  role: Role,
  content: string,
): string {
  const id = newId('m_');
  ctx.store.insertMessage({ id, session_id: sessionId, turn_id: turnId, role, content, ts: ctx.now() });
  return id;
}

/** Marks live messages deleted by `by`; answers the ids actually deleted. */
export function deleteMessages(ctx: EngineContext, ids: string[], by: string): string[] {
  ctx.store.markMessagesDeleted(ids, by);
  return ids;
}

/** Brings deleted messages back; answers their ids in their original order. */
export function restoreMessages(ctx: EngineContext, ids: string[]): string[] {
  return ctx.store.restoreMessages(ids).map((m) => m.id);
}

export function listMessages(
  ctx: EngineContext,
  sessionId: string,
  opts: { turnId?: string; limit?: number; before?: number } = {},
): Message[] {
  const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
  return ctx.store.listMessages(sessionId, opts.turnId, opts.before, limit).map(toMessage);
}
