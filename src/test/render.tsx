import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { setSessionKeyForTests } from '../api/handshake';
import { createMutationCache } from '../api/mutationCache';
import { setTokenForTests } from '../api/token';
import { Providers } from '../app/Providers';
import { useUiStore } from '../store';

const initialUi = useUiStore.getState();
export const TEST_TOKEN = 'console-token-from-the-printed-url';
/** The session key the tab sends once its service proved it holds the token. */
export const TEST_SESSION_KEY = 'session-key-of-the-checked-service';

/** Renders inside a fresh query client (no retries) and a reset UI store. */
export function renderWithClient(ui: ReactElement) {
  useUiStore.setState(initialUi, true);
  // As if the tab had been opened from the printed URL, and its service had passed the handshake.
  setTokenForTests(TEST_TOKEN);
  setSessionKeyForTests(TEST_SESSION_KEY);
  const client = new QueryClient({
    mutationCache: createMutationCache(),
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  return { client, ...render(<Providers client={client}>{ui}</Providers>) };
}
