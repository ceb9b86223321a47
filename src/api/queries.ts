// One queryOptions factory per resource: components, events and mutations share these keys.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  DiffResponse, ManifestResponse, MessagesResponse, SessionsResponse, StoreStats, TurnsResponse,
} from '../../server/protocol';
import { apiGet, apiPath } from './client';

export const TURN_PAGE_SIZE = 1000;

export const queryKeys = {
  store: ['store'] as const,
  sessions: ['sessions'] as const,
  turns: (sessionId: string) => ['turns', sessionId] as const,
  manifest: (turnId: string) => ['manifest', turnId] as const,
  diff: (turnId: string, uri: string) => ['diff', turnId, uri] as const,
  messages: (sessionId: string, turnId?: string) => ['messages', sessionId, turnId ?? 'all'] as const,
  messagesOfSession: (sessionId: string) => ['messages', sessionId] as const,
};

const enc = encodeURIComponent;

export const storeQuery = () =>
  queryOptions({ queryKey: queryKeys.store, queryFn: () => apiGet<StoreStats>('/api/store') });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.sessions,
    queryFn: async () => (await apiGet<SessionsResponse>('/api/sessions')).sessions,
  });

/** Pages go backwards in time: the first page is the newest turns, `before` fetches older ones. */
export const turnsQuery = (sessionId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.turns(sessionId),
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) =>
      (await apiGet<TurnsResponse>(apiPath(`/api/sessions/${enc(sessionId)}/turns`, { limit: TURN_PAGE_SIZE, before: pageParam }))).turns,
    getNextPageParam: (lastPage) => {
      if (lastPage.length < TURN_PAGE_SIZE) return undefined;
      const oldest = Math.min(...lastPage.map((turn) => turn.number));
      return oldest > 1 ? oldest : undefined;
    },
  });

export const manifestQuery = (turnId: string) =>
  queryOptions({
    queryKey: queryKeys.manifest(turnId),
    queryFn: () => apiGet<ManifestResponse>(`/api/turns/${enc(turnId)}`),
  });

export const diffQuery = (turnId: string, uri: string) =>
  queryOptions({
    queryKey: queryKeys.diff(turnId, uri),
    queryFn: () => apiGet<DiffResponse>(apiPath(`/api/turns/${enc(turnId)}/diff`, { uri })),
    // A turn's before and after never change once it is committed; live turns are refetched by events.
    staleTime: 30_000,
  });

export const messagesQuery = (sessionId: string, turnId?: string) =>
  queryOptions({
    queryKey: queryKeys.messages(sessionId, turnId),
    queryFn: async () =>
      (await apiGet<MessagesResponse>(apiPath(`/api/sessions/${enc(sessionId)}/messages`, { turnId }))).messages,
  });
