// Maps each server event to the query keys it makes stale.
import type { QueryKey } from '@tanstack/react-query';
import type { EventMap, EventName } from '../../../server/protocol';
import { queryKeys } from '../../api/queries';

export function keysForEvent<N extends EventName>(name: N, data: EventMap[N]): QueryKey[] {
  const { sessionId } = data;
  switch (name) {
    case 'turn-begun':
      return [queryKeys.sessions, queryKeys.store, queryKeys.turns(sessionId)];
    case 'captured': {
      const { turnId } = data as EventMap['captured'];
      // Only the live turn's own detail changes; the timeline's counts settle at commit.
      return [queryKeys.manifest(turnId), ['diff', turnId]];
    }
    case 'turn-committed': {
      const { turnId } = data as EventMap['turn-committed'];
      return [
        queryKeys.sessions, queryKeys.store, queryKeys.turns(sessionId), queryKeys.manifest(turnId),
        ['diff', turnId], queryKeys.messagesOfSession(sessionId),
      ];
    }
    case 'rollback-done':
      return [
        queryKeys.sessions, queryKeys.store, queryKeys.turns(sessionId), ['manifest'], ['diff'],
        queryKeys.messagesOfSession(sessionId),
      ];
    case 'messages-deleted':
    case 'messages-restored':
      return [queryKeys.messagesOfSession(sessionId), queryKeys.turns(sessionId), ['manifest']];
    case 'session-deleted':
      return [queryKeys.sessions, queryKeys.store, queryKeys.turns(sessionId), queryKeys.messagesOfSession(sessionId)];
    default:
      return [];
  }
}
