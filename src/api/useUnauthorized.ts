// Whether the server's latest word was 401: read from react-query's caches (server state
// stays there), so a later answer (the printed URL reopened in this tab) clears it by itself.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { isApiError } from './client';

function lastAnswerWas401(client: QueryClient): boolean {
  let lastSuccess = 0;
  let last401 = 0;
  for (const query of client.getQueryCache().getAll()) {
    const { dataUpdatedAt, errorUpdatedAt, error, status } = query.state;
    lastSuccess = Math.max(lastSuccess, dataUpdatedAt);
    if (status === 'error' && isApiError(error, 'UNAUTHORIZED')) last401 = Math.max(last401, errorUpdatedAt);
  }
  for (const mutation of client.getMutationCache().getAll()) {
    const { error, status, submittedAt } = mutation.state;
    if (status === 'error' && isApiError(error, 'UNAUTHORIZED')) last401 = Math.max(last401, submittedAt);
  }
  return last401 > 0 && last401 >= lastSuccess;
}

export function useUnauthorized(): boolean {
  const client = useQueryClient();
  const subscribe = useCallback(
    (notify: () => void) => {
      const offQueries = client.getQueryCache().subscribe(notify);
      const offMutations = client.getMutationCache().subscribe(notify);
      return () => {
        offQueries();
        offMutations();
      };
    },
    [client],
  );
  return useSyncExternalStore(subscribe, () => lastAnswerWas401(client));
}
