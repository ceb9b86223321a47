// One queryOptions factory per resource, keyed by ./keys and addressed to one workspace
// (./workspaceScope): components reach them through the hooks of ./hooks, events and
// mutations invalidate through the same keys.
import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type {
  AgentReadResponse,
  CommandResponse,
  Comparison,
  DiffResponse,
  PinsResponse,
  StepsResponse,
  HealthResponse,
  ManifestResponse,
  MessagesResponse,
  SessionsResponse,
  StoreStats,
  Turn,
  TurnsResponse,
} from '../../server/protocol';
import { apiGet, apiPath, isApiError } from './client';
import { keys } from './keys';
import { previewRollback } from './preview';
import type { RollbackTarget } from './rollbackTarget';
import { apiBase, type WorkspaceScope } from './workspaceScope';
import type { WorkspacesResponse } from '../../server/protocol';

export const TURN_PAGE_SIZE = 1000;

const enc = encodeURIComponent;

export const healthQuery = () =>
  queryOptions({ queryKey: keys.health.all, queryFn: () => apiGet<HealthResponse>('/api/health'), retry: false });

/** The service's workspaces; a server without workspaces (404) answers none, and the console shows its one. */
export const workspacesQuery = () =>
  queryOptions({
    queryKey: keys.workspaces.all,
    queryFn: async () => {
      try {
        return (await apiGet<WorkspacesResponse>('/api/workspaces')).workspaces;
      } catch (error) {
        if (isApiError(error) && error.status === 404) return [];
        throw error;
      }
    },
  });

export const storeQuery = (scope: WorkspaceScope) =>
  queryOptions({ queryKey: keys.in(scope).store.all, queryFn: () => apiGet<StoreStats>(`${apiBase(scope)}/store`) });

/**
 * The first answer also carries the newest session's first page of turns, put where the
 * timeline looks for it: the console paints its timeline after one round trip, not two.
 */
export const sessionsQuery = (client: QueryClient, scope: WorkspaceScope) => {
  const at = keys.in(scope);
  return queryOptions({
    queryKey: at.sessions.all,
    // A view mounting again does not ask again after an error (a workspace that cannot record
    // answers the same): the retry button, polling and events do.
    retryOnMount: false,
    queryFn: async () => {
      const first = client.getQueryData(at.sessions.all) === undefined;
      const answer = await apiGet<SessionsResponse>(
        apiPath(`${apiBase(scope)}/sessions`, { turns: first ? TURN_PAGE_SIZE : undefined }),
      );
      const seed = answer.firstTurns;
      if (seed && client.getQueryData(at.turns.list(seed.sessionId)) === undefined) {
        client.setQueryData<InfiniteData<Turn[], number | undefined>>(at.turns.list(seed.sessionId), {
          pages: [seed.turns],
          pageParams: [undefined],
        });
      }
      return answer.sessions;
    },
  });
};

/** Pages go backwards in time: the first page is the newest turns, `before` fetches older ones. */
export const turnsQuery = (scope: WorkspaceScope, sessionId: string) =>
  infiniteQueryOptions({
    queryKey: keys.in(scope).turns.list(sessionId),
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) =>
      (
        await apiGet<TurnsResponse>(
          apiPath(`${apiBase(scope)}/sessions/${enc(sessionId)}/turns`, { limit: TURN_PAGE_SIZE, before: pageParam }),
        )
      ).turns,
    getNextPageParam: (lastPage) => {
      if (lastPage.length < TURN_PAGE_SIZE) return undefined;
      const oldest = Math.min(...lastPage.map((turn) => turn.number));
      return oldest > 1 ? oldest : undefined;
    },
  });

/** Turns whose prompt or paths contain `text`, found by the server (newest first once sorted). */
export const turnSearchQuery = (scope: WorkspaceScope, sessionId: string, text: string) =>
  queryOptions({
    queryKey: keys.in(scope).turns.search(sessionId, text),
    queryFn: async () =>
      (
        await apiGet<TurnsResponse>(
          apiPath(`${apiBase(scope)}/sessions/${enc(sessionId)}/turns`, { q: text, limit: TURN_PAGE_SIZE }),
        )
      ).turns,
  });

export const manifestQuery = (scope: WorkspaceScope, turnId: string) =>
  queryOptions({
    queryKey: keys.in(scope).manifest.ofTurn(turnId),
    queryFn: () => apiGet<ManifestResponse>(`${apiBase(scope)}/turns/${enc(turnId)}`),
  });

/** A command's text as kept (up to 64 KiB); it never changes once recorded. */
export const commandQuery = (scope: WorkspaceScope, turnId: string, execId: string) =>
  queryOptions({
    queryKey: keys.in(scope).command.of(turnId, execId),
    queryFn: async () =>
      (await apiGet<CommandResponse>(`${apiBase(scope)}/turns/${enc(turnId)}/commands/${enc(execId)}`)).command,
    staleTime: Infinity,
  });

export const diffQuery = (scope: WorkspaceScope, turnId: string, uri: string) =>
  queryOptions({
    queryKey: keys.in(scope).diff.ofFile(turnId, uri),
    queryFn: () => apiGet<DiffResponse>(apiPath(`${apiBase(scope)}/turns/${enc(turnId)}/diff`, { uri })),
    // A turn's before and after never change once it is committed; live turns are refetched by events.
    staleTime: 30_000,
  });

/** The file as it is on disk now (the console route `…/file`); null when it does not exist. */
export const currentFileQuery = (scope: WorkspaceScope, uri: string) =>
  queryOptions({
    queryKey: keys.in(scope).current.ofFile(uri),
    queryFn: async () => {
      try {
        return await apiGet<AgentReadResponse>(apiPath(`${apiBase(scope)}/file`, { uri }));
      } catch (error) {
        if (isApiError(error, 'FILE_NOT_FOUND')) return null;
        throw error;
      }
    },
    staleTime: 0,
  });

export const messagesQuery = (scope: WorkspaceScope, sessionId: string, turnId?: string) =>
  queryOptions({
    queryKey: keys.in(scope).messages.ofTurn(sessionId, turnId),
    queryFn: async () =>
      (await apiGet<MessagesResponse>(apiPath(`${apiBase(scope)}/sessions/${enc(sessionId)}/messages`, { turnId })))
        .messages,
  });

export const stepsQuery = (scope: WorkspaceScope, turnId: string) =>
  queryOptions({
    queryKey: keys.in(scope).steps.ofTurn(turnId),
    queryFn: async () => (await apiGet<StepsResponse>(`${apiBase(scope)}/turns/${enc(turnId)}/steps`)).steps,
  });

export const pinsQuery = (scope: WorkspaceScope) =>
  queryOptions({
    queryKey: keys.in(scope).pins.all,
    queryFn: async () => (await apiGet<PinsResponse>(`${apiBase(scope)}/pins`)).pins,
  });

/** Later turns may change what lies between two points only while one of them is active: never cached long. */
export const compareQuery = (scope: WorkspaceScope, from: string, to: string) =>
  queryOptions({
    queryKey: keys.in(scope).compare.of(from, to),
    queryFn: () => apiGet<Comparison>(apiPath(`${apiBase(scope)}/compare`, { from, to })),
    staleTime: 30_000,
  });

export const compareDiffQuery = (scope: WorkspaceScope, from: string, to: string, uri: string) =>
  queryOptions({
    queryKey: keys.in(scope).compare.ofFile(from, to, uri),
    queryFn: () => apiGet<DiffResponse>(apiPath(`${apiBase(scope)}/compare/diff`, { from, to, uri })),
    staleTime: 30_000,
  });

/** What a rollback would do. Never cached: the disk may change between two dialogs. */
export const previewQuery = (target: RollbackTarget) =>
  queryOptions({
    queryKey: keys.in(target.workspace).preview.of(target),
    queryFn: () => previewRollback(target),
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
