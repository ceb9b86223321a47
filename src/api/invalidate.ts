// What a rollback makes stale, built from the key factories: shared by the rollback dialog,
// its undo and the live `rollback-done` event.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keys } from './keys';

/** A rollback touches files, turn statuses, messages and store usage of its session. */
export function keysAfterRollback(sessionId: string): QueryKey[] {
  return [
    keys.sessions.all, keys.store.all, keys.turns.ofSession(sessionId), keys.manifest.all, keys.diff.all,
    keys.current.all, keys.messages.ofSession(sessionId),
  ];
}

export async function invalidateAfterRollback(client: QueryClient, sessionId: string): Promise<void> {
  await Promise.all(keysAfterRollback(sessionId).map((queryKey) => client.invalidateQueries({ queryKey })));
}
