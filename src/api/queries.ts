// One queryOptions factory per resource, keyed by ./keys: components reach them through the
// hooks of ./hooks, events and mutations invalidate through the same keys.
import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type {
  AgentReadResponse, DiffResponse, HealthResponse, ManifestResponse, MessagesResponse, SessionsResponse, StoreStats, Turn,
  TurnsResponse,
} from '../../server/protocol';
import { apiGet, apiPath, isApiError } from './client';
import { keys } from './keys';
import { previewRollback } from './preview';
import type { RollbackTarget } from './rollbackTarget';

export const TURN_PAGE_SIZE = 1000;

const enc = encodeURIComponent;

export const healthQuery = () =>
  queryOptions({ queryKey: keys.health.all, queryFn: () => apiGet<HealthResponse>('/api/health'), retry: false });

export const storeQuery = () =>
  queryOptions({ queryKey: keys.store.all, queryFn: () => apiGet<StoreStats>('/api/store') });

/**
 * The first answer also carries the newest session's first page of turns, put where the
 * timeline looks for it: the console paints its timeline after one round trip, not two.
 */
export const sessionsQuery = (client: QueryClient) =>
  queryOptions({
    queryKey: keys.sessions.all,
    queryFn: async () => {
      const first = client.getQueryData(keys.sessions.all) === undefined;
      const answer = await apiGet<SessionsResponse>(apiPath('/api/sessions', { turns: first ? TURN_PAGE_SIZE : undefined }));
      const seed = answer.firstTurns;
      if (seed && client.getQueryData(keys.turns.list(seed.sessionId)) === undefined) {
        client.setQueryData<InfiniteData<Turn[], number | undefined>>(keys.turns.list(seed.sessionId), { pages: [seed.turns], pageParams: [undefined] });
      }
      return answer.sessions;
    },
  });

/** Pages go backwards in time: the first page is the newest turns, `before` fetches older ones. */
export const turnsQuery = (sessionId: string) =>
  infiniteQueryOptions({
    queryKey: keys.turns.list(sessionId),
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) =>
      (await apiGet<TurnsResponse>(apiPath(`/api/sessions/${enc(sessionId)}/turns`, { limit: TURN_PAGE_SIZE, before: pageParam }))).turns,
    getNextPageParam: (lastPage) => {
      if (lastPage.length < TURN_PAGE_SIZE) return undefined;
      const oldest = Math.min(...lastPage.map((turn) => turn.number));
      return oldest > 1 ? oldest : undefined;
    },
  });

/** Turns whose prompt or paths contain `text`, found by the server (newest first once sorted). */
export const turnSearchQuery = (sessionId: string, text: string) =>
  queryOptions({
    queryKey: keys.turns.search(sessionId, text),
    queryFn: async () =>
      (await apiGet<TurnsResponse>(apiPath(`/api/sessions/${enc(sessionId)}/turns`, { q: text, limit: TURN_PAGE_SIZE }))).turns,
  });

export const manifestQuery = (turnId: string) =>
  queryOptions({
    queryKey: keys.manifest.ofTurn(turnId),
    queryFn: () => apiGet<ManifestResponse>(`/api/turns/${enc(turnId)}`),
  });

export const diffQuery = (turnId: string, uri: string) =>
  queryOptions({
    queryKey: keys.diff.ofFile(turnId, uri),
    queryFn: () => apiGet<DiffResponse>(apiPath(`/api/turns/${enc(turnId)}/diff`, { uri })),
    // A turn's before and after never change once it is committed; live turns are refetched by events.
    staleTime: 30_000,
  });

/** The file as it is on disk now; null when it does not exist. */
export const currentFileQuery = (uri: string) =>
  queryOptions({
    queryKey: keys.current.ofFile(uri),
    queryFn: async () => {
      try {
        return await apiGet<AgentReadResponse>(apiPath('/api/agent/fs/read', { uri }));
      } catch (error) {
        if (isApiError(error, 'FILE_NOT_FOUND')) return null;
        throw error;
      }
    },
    staleTime: 0,
  });

export const messagesQuery = (sessionId: string, turnId?: string) =>
  queryOptions({
    queryKey: keys.messages.ofTurn(sessionId, turnId),
    queryFn: async () =>
      (await apiGet<MessagesResponse>(apiPath(`/api/sessions/${enc(sessionId)}/messages`, { turnId }))).messages,
  });

/** What a rollback would do. Never cached: the disk may change between two dialogs. */
export const previewQuery = (target: RollbackTarget) =>
  queryOptions({
    queryKey: keys.preview.of(target),
    queryFn: () => previewRollback(target),
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
