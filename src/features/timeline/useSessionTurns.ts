import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Turn } from '../../../server/protocol';
import { turnsQuery } from '../../api/queries';
import { usePollingInterval } from '../live/usePollingInterval';

/** All loaded turns of a session, newest first, deduplicated across pages. */
export function useSessionTurns(sessionId: string | null) {
  const refetchInterval = usePollingInterval();
  const query = useInfiniteQuery({
    ...turnsQuery(sessionId ?? ''),
    enabled: sessionId !== null,
    refetchInterval,
  });
  const turns = useMemo(() => {
    const byId = new Map<string, Turn>();
    for (const page of query.data?.pages ?? []) for (const turn of page) byId.set(turn.turnId, turn);
    return [...byId.values()].sort((a, b) => b.number - a.number);
  }, [query.data]);
  return { ...query, turns };
}
