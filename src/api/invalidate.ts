// What a rollback makes stale, built from the key factories: named by the rollback mutations'
// `meta` (./mutations) and by the live `rollback-done` event of a rollback made elsewhere.
import type { QueryKey } from '@tanstack/react-query';
import { keys } from './keys';
import { PINS_SESSION } from './pins';
import type { WorkspaceScope } from './workspaceScope';

/** A rollback touches files, turn statuses, messages and store usage of its session (and the workspace's counts). */
export function keysAfterRollback(scope: WorkspaceScope, sessionId: string): QueryKey[] {
  const at = keys.in(scope);
  // A rewind to a pin covers the turns of every session begun after it.
  const everySession = sessionId === PINS_SESSION;
  return [
    keys.workspaces.all,
    at.sessions.all,
    at.store.all,
    everySession ? at.turns.all : at.turns.ofSession(sessionId),
    at.manifest.all,
    at.diff.all,
    at.current.all,
    everySession ? at.messages.all : at.messages.ofSession(sessionId),
    at.steps.all,
    at.pins.all,
    at.compare.all,
  ];
}
