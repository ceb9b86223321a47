import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isApiError } from '../api/client';
import { createMutationCache } from '../api/mutationCache';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: createMutationCache(),
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        // 4xx answers will not change by asking again, nor a workspace whose store cannot open; a dropped connection might.
        retry: (failures, error) =>
          failures < 2 &&
          !(
            isApiError(error) &&
            ((error.status >= 400 && error.status < 500) || error.code === 'WORKSPACE_NOT_RECORDING')
          ),
        refetchOnWindowFocus: true,
      },
    },
  });
}

export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
