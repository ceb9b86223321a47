import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/client';
import { useSessions, useSessionTurns, useTurnSearch } from '../../api/hooks';
import { useSelection } from '../../app/useSelection';
import { useUiStore } from '../../store';
import { MissingSession } from './MissingSession';
import { TurnSearchBox } from './TurnSearchBox';
import { TurnTimeline } from './TurnTimeline';

const SEARCH_DELAY_MS = 250;

/** The search text once typing pauses: the server is asked once per pause, not per key. */
function useSettledSearch(): string {
  const text = useUiStore((state) => state.search).trim();
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), text === '' ? 0 : SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

export function TimelinePane() {
  const { sessionId, session, turnId: selectedTurnId } = useSelection();
  const { isSuccess: sessionsLoaded } = useSessions();
  const selectTurn = useUiStore((state) => state.selectTurn);
  const search = useSettledSearch();
  const all = useSessionTurns(sessionId);
  const found = useTurnSearch(sessionId, search);
  const searching = search !== '';
  const { turns, isPending, isError, error } = searching ? found : all;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = all;

  const onLoadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [isFetchingNextPage, fetchNextPage]);

  const missing = sessionId !== null && ((sessionsLoaded && !session) || isApiError(all.error, 'SESSION_NOT_FOUND'));
  if (missing) return <MissingSession sessionId={sessionId} />;

  return (
    <section className="timeline" aria-label="Turn timeline">
      <h2 className="pane-title">
        Turns{' '}
        <span className="pane-count">
          {searching
            ? `${turns.length} of ${Math.max(session?.turnCount ?? 0, all.turns.length)}`
            : Math.max(session?.turnCount ?? 0, turns.length)}
        </span>
      </h2>
      {sessionId && <TurnSearchBox />}
      {!sessionId ? (
        <p className="pane-empty">Select a session.</p>
      ) : isPending ? (
        <p className="pane-empty" role="status">
          {searching ? 'Searching…' : 'Loading turns…'}
        </p>
      ) : isError && turns.length === 0 ? (
        <p className="pane-empty pane-empty--error" role="alert">
          Could not load turns: {error?.message}
        </p>
      ) : turns.length === 0 ? (
        <p className="pane-empty">
          {searching ? `No turn’s prompt or paths contain “${search}”.` : 'No turns in this session yet.'}
        </p>
      ) : (
        <TurnTimeline
          turns={turns}
          selectedTurnId={selectedTurnId}
          onSelect={(turnId, viaKeyboard) => selectTurn(turnId, viaKeyboard ? 'replace' : 'push')}
          hasMore={!searching && hasNextPage}
          onLoadMore={onLoadMore}
        />
      )}
    </section>
  );
}
