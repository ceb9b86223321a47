import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMutationCache } from '../api/mutationCache';
import { Providers } from '../app/Providers';
import { useUiStore } from '../store';

const initialUi = useUiStore.getState();
export const TEST_TOKEN = 'console-token-from-the-printed-url';

/** Renders inside a fresh query client (no retries) and a reset UI store. */
export function renderWithClient(ui: ReactElement) {
  useUiStore.setState(initialUi, true);
  // As if the tab had been opened from the printed URL.
  window.sessionStorage.setItem('turnback.token', TEST_TOKEN);
  const client = new QueryClient({
    mutationCache: createMutationCache(),
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  return { client, ...render(<Providers client={client}>{ui}</Providers>) };
}
