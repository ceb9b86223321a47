// What a rollback makes stale, built from the key factories: named by the rollback mutations'
// `meta` (./mutations) and by the live `rollback-done` event of a rollback made elsewhere.
import type { QueryKey } from '@tanstack/react-query';
import { keys } from './keys';
import type { WorkspaceScope } from './workspaceScope';

/** A rollback touches files, turn statuses, messages and store usage of its session (and the workspace's counts). */
export function keysAfterRollback(scope: WorkspaceScope, sessionId: string): QueryKey[] {
  const at = keys.in(scope);
  return [
    keys.workspaces.all, at.sessions.all, at.store.all, at.turns.ofSession(sessionId), at.manifest.all, at.diff.all,
    at.current.all, at.messages.ofSession(sessionId),
  ];
}
