// What a rollback makes stale, built from the key factories: named by the rollback mutations'
// `meta` (./mutations) and by the live `rollback-done` event of a rollback made elsewhere.
import type { QueryKey } from '@tanstack/react-query';
import { keys } from './keys';

/** A rollback touches files, turn statuses, messages and store usage of its session. */
export function keysAfterRollback(sessionId: string): QueryKey[] {
  return [
    keys.sessions.all, keys.store.all, keys.turns.ofSession(sessionId), keys.manifest.all, keys.diff.all,
    keys.current.all, keys.messages.ofSession(sessionId),
  ];
}
