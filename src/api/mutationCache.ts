// Invalidation after a change, in one place: every mutation names the query keys it makes
// stale in its `meta.invalidates`, and this cache invalidates them once it has settled.
// Settled, not only succeeded: a rollback refused half way (or cut off by the network) may
// still have changed files, and the views must show what is on disk.
import { MutationCache, type QueryKey } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { invalidates?: QueryKey[] };
  }
}

export function createMutationCache(): MutationCache {
  return new MutationCache({
    onSettled: (_data, _error, _variables, _result, mutation, { client }) => {
      // Not awaited: a mutation's answer shows at once while the views refresh behind it.
      for (const queryKey of mutation.meta?.invalidates ?? []) void client.invalidateQueries({ queryKey });
    },
  });
}
