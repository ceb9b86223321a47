// Maps each server event to the query keys it makes stale, all built from the key factories.
// One event stream carries every workspace's events, each naming its `workspaceId`.
import type { QueryKey } from '@tanstack/react-query';
import type { EventMap, EventName } from '../../../server/protocol';
import { keysAfterRollback } from '../../api/invalidate';
import { keys } from '../../api/keys';
import type { WorkspaceScope } from '../../api/workspaceScope';

/** The keys an event makes stale in the workspace it happened in (`scope`). */
export function keysForEvent<N extends EventName>(
  name: N,
  data: EventMap[N],
  scope: WorkspaceScope = null,
): QueryKey[] {
  const { sessionId } = data;
  const at = keys.in(scope);
  switch (name) {
    case 'turn-begun':
      return [keys.workspaces.all, at.sessions.all, at.store.all, at.turns.ofSession(sessionId)];
    case 'captured': {
      const { turnId } = data as EventMap['captured'];
      // Only the live turn's own detail changes; the timeline's counts settle at commit.
      return [at.manifest.ofTurn(turnId), at.diff.ofTurn(turnId), at.steps.ofTurn(turnId)];
    }
    case 'turn-committed': {
      const { turnId } = data as EventMap['turn-committed'];
      return [
        keys.workspaces.all,
        at.sessions.all,
        at.store.all,
        at.turns.ofSession(sessionId),
        at.manifest.ofTurn(turnId),
        at.diff.ofTurn(turnId),
        at.current.all,
        at.messages.ofSession(sessionId),
        at.steps.ofTurn(turnId),
        at.pins.all,
        at.compare.all,
      ];
    }
    case 'rollback-done':
      return keysAfterRollback(scope, sessionId);
    case 'messages-deleted':
    case 'messages-restored':
      return [at.messages.ofSession(sessionId), at.turns.ofSession(sessionId), at.manifest.all];
    case 'session-deleted':
      return [
        keys.workspaces.all,
        at.sessions.all,
        at.store.all,
        at.turns.ofSession(sessionId),
        at.messages.ofSession(sessionId),
      ];
    default:
      return [];
  }
}

/**
 * The cache scopes an event's workspace is held under: its own id, and `null` as well when it
 * is the default workspace (read through the unprefixed routes before one is chosen). A server
 * without workspaces names none: its events are the one workspace's, `current`.
 */
export function scopesOfEvent(
  workspaceId: string | undefined,
  current: WorkspaceScope,
  defaultId: string | undefined,
): WorkspaceScope[] {
  if (workspaceId === undefined) return [current];
  return workspaceId === defaultId ? [workspaceId, null] : [workspaceId];
}
