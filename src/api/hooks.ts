// One hook per resource: the only way components read server data. Each carries its
// resource's refresh policy, so every component that shows sessions polls them alike, and
// each asks the workspace the person chose (./workspaceScope).
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Turn } from '../../server/protocol';
import { usePollingInterval } from '../features/live/usePollingInterval';
import type { RollbackTarget } from './rollbackTarget';
import {
  commandQuery,
  compareDiffQuery,
  compareQuery,
  currentFileQuery,
  pinsQuery,
  stepsQuery,
  diffQuery,
  manifestQuery,
  messagesQuery,
  previewQuery,
  sessionsQuery,
  storeQuery,
  turnSearchQuery,
  turnsQuery,
  workspacesQuery,
} from './queries';
import { useWorkspaceScope, type WorkspaceScope } from './workspaceScope';
import { INDEX_POLL_MS } from '../features/workspaces/indexText';

/**
 * The service's workspaces (none from a server that has no workspaces); polled like sessions, and
 * every second while an index build runs (its progress moves with no event to say so).
 */
export function useWorkspaces() {
  const polling = usePollingInterval(10_000);
  return useQuery({
    ...workspacesQuery(),
    refetchInterval: (query) =>
      query.state.data?.some((workspace) => workspace.index?.state === 'building') ? INDEX_POLL_MS : polling,
  });
}

/**
 * The chosen workspace, and whether it is known yet: the default one (null) only once the list
 * names one, holds at most one, or cannot be had; with several and no default the service answers
 * the unprefixed routes 400 WORKSPACE_REQUIRED, so they wait for the first to be chosen.
 */
function useKnownScope(): { scope: WorkspaceScope; known: boolean } {
  const scope = useWorkspaceScope();
  const { data: workspaces, isError } = useWorkspaces();
  const known =
    scope !== null ||
    isError ||
    (workspaces !== undefined && (workspaces.length <= 1 || workspaces.some((workspace) => workspace.isDefault)));
  return { scope, known };
}

/** Sessions, newest activity first; polled while the event stream is down. */
export function useSessions() {
  const refetchInterval = usePollingInterval();
  const { scope, known } = useKnownScope();
  return useQuery({ ...sessionsQuery(useQueryClient(), scope), enabled: known, refetchInterval });
}

export function useStoreStats() {
  const refetchInterval = usePollingInterval(10_000);
  const { scope, known } = useKnownScope();
  return useQuery({ ...storeQuery(scope), enabled: known, refetchInterval });
}

/**
 * The turns of an answer's pages, newest first, deduplicated: kept per answer, since every pane
 * showing the selection asks for them and each would otherwise merge and sort its own copy.
 */
const mergedTurns = new WeakMap<InfiniteData<Turn[]>, Turn[]>();
const NO_TURNS: Turn[] = [];

function turnsOfPages(data: InfiniteData<Turn[]> | undefined): Turn[] {
  if (!data) return NO_TURNS;
  let turns = mergedTurns.get(data);
  if (!turns) {
    const byId = new Map<string, Turn>();
    for (const page of data.pages) for (const turn of page) byId.set(turn.turnId, turn);
    turns = [...byId.values()].sort((a, b) => b.number - a.number);
    mergedTurns.set(data, turns);
  }
  return turns;
}

/** All loaded turns of a session, newest first, deduplicated across pages. */
export function useSessionTurns(sessionId: string | null) {
  const refetchInterval = usePollingInterval();
  const query = useInfiniteQuery({
    ...turnsQuery(useWorkspaceScope(), sessionId ?? ''),
    enabled: sessionId !== null,
    refetchInterval,
  });
  return { ...query, turns: turnsOfPages(query.data) };
}

/** The turns of a session matching a search (empty text: no search). */
export function useTurnSearch(sessionId: string | null, text: string) {
  const query = useQuery({
    ...turnSearchQuery(useWorkspaceScope(), sessionId ?? '', text),
    enabled: sessionId !== null && text !== '',
  });
  const turns = useMemo(() => [...(query.data ?? [])].sort((a, b) => b.number - a.number), [query.data]);
  return { ...query, turns };
}

export function useTurnManifest(turnId: string | null) {
  return useQuery({ ...manifestQuery(useWorkspaceScope(), turnId ?? ''), enabled: turnId !== null });
}

/** Fetched only when `enabled`: a listing carries each command's first characters only. */
export function useCommandText(turnId: string, execId: string, enabled: boolean) {
  return useQuery({ ...commandQuery(useWorkspaceScope(), turnId, execId), enabled });
}

export function useTurnDiff(turnId: string | null, uri: string | null, enabled = true) {
  return useQuery({
    ...diffQuery(useWorkspaceScope(), turnId ?? '', uri ?? ''),
    enabled: enabled && turnId !== null && uri !== null,
  });
}

export function useCurrentFile(uri: string, enabled = true) {
  return useQuery({ ...currentFileQuery(useWorkspaceScope(), uri), enabled });
}

export function useTurnMessages(sessionId: string, turnId: string, live: boolean) {
  // Messages appended during a turn raise no event of their own.
  return useQuery({ ...messagesQuery(useWorkspaceScope(), sessionId, turnId), refetchInterval: live ? 3000 : false });
}

export function useRollbackPreview(target: RollbackTarget) {
  return useQuery(previewQuery(target));
}

export function useTurnSteps(turnId: string, enabled = true) {
  return useQuery({ ...stepsQuery(useWorkspaceScope(), turnId), enabled });
}

export function usePins() {
  return useQuery(pinsQuery(useWorkspaceScope()));
}

export function useComparison(from: string | null, to: string | null) {
  return useQuery({
    ...compareQuery(useWorkspaceScope(), from ?? '', to ?? ''),
    enabled: from !== null && to !== null && from !== to,
  });
}

export function useCompareDiff(from: string, to: string, uri: string, enabled = true) {
  return useQuery({ ...compareDiffQuery(useWorkspaceScope(), from, to, uri), enabled });
}
