// Maps each server event to the query keys it makes stale, all built from the key factories.
import type { QueryKey } from '@tanstack/react-query';
import type { EventMap, EventName } from '../../../server/protocol';
import { keysAfterRollback } from '../../api/invalidate';
import { keys } from '../../api/keys';

export function keysForEvent<N extends EventName>(name: N, data: EventMap[N]): QueryKey[] {
  const { sessionId } = data;
  switch (name) {
    case 'turn-begun':
      return [keys.sessions.all, keys.store.all, keys.turns.ofSession(sessionId)];
    case 'captured': {
      const { turnId } = data as EventMap['captured'];
      // Only the live turn's own detail changes; the timeline's counts settle at commit.
      return [keys.manifest.ofTurn(turnId), keys.diff.ofTurn(turnId)];
    }
    case 'turn-committed': {
      const { turnId } = data as EventMap['turn-committed'];
      return [
        keys.sessions.all, keys.store.all, keys.turns.ofSession(sessionId), keys.manifest.ofTurn(turnId),
        keys.diff.ofTurn(turnId), keys.current.all, keys.messages.ofSession(sessionId),
      ];
    }
    case 'rollback-done':
      return keysAfterRollback(sessionId);
    case 'messages-deleted':
    case 'messages-restored':
      return [keys.messages.ofSession(sessionId), keys.turns.ofSession(sessionId), keys.manifest.all];
    case 'session-deleted':
      return [keys.sessions.all, keys.store.all, keys.turns.ofSession(sessionId), keys.messages.ofSession(sessionId)];
    default:
      return [];
  }
}
