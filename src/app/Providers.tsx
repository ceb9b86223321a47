import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isApiError } from '../api/client';
import { useUiStore } from '../store';

/** Any 401 means the cookie is gone (a restarted server has a new token): show the sign-in page. */
function onAnyError(error: unknown): void {
  if (isApiError(error, 'UNAUTHORIZED')) useUiStore.getState().setUnauthorized(true);
}

function signedIn(): void {
  if (useUiStore.getState().unauthorized) useUiStore.getState().setUnauthorized(false);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Any answer means the browser is signed in again (for example after reopening the URL in another tab).
    queryCache: new QueryCache({ onError: onAnyError, onSuccess: signedIn }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        // 4xx answers will not change by asking again; a dropped connection might.
        retry: (failures, error) => failures < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: true,
      },
    },
  });
}

export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
