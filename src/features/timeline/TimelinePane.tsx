import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { sessionsQuery } from '../../api/queries';
import { useUiStore } from '../../store';
import { TurnTimeline } from './TurnTimeline';
import { useSessionTurns } from './useSessionTurns';

export function TimelinePane() {
  const sessionId = useUiStore((state) => state.sessionId);
  const selectedTurnId = useUiStore((state) => state.turnId);
  const selectTurn = useUiStore((state) => state.selectTurn);
  const { data: sessions } = useQuery(sessionsQuery());
  const turnCount = sessions?.find((session) => session.sessionId === sessionId)?.turnCount;
  const { turns, isPending, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage } = useSessionTurns(sessionId);

  // Opening a session shows its newest turn; a deep link keeps the turn it names.
  useEffect(() => {
    if (sessionId && !selectedTurnId && turns.length > 0) selectTurn(turns[0].turnId, 'replace');
  }, [sessionId, selectedTurnId, turns, selectTurn]);

  const onLoadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [isFetchingNextPage, fetchNextPage]);

  return (
    <section className="timeline" aria-label="Turn timeline">
      <h2 className="pane-title">
        Turns <span className="pane-count">{Math.max(turnCount ?? 0, turns.length)}</span>
      </h2>
      {!sessionId ? (
        <p className="pane-empty">Select a session.</p>
      ) : isPending ? (
        <p className="pane-empty" role="status">
          Loading turns…
        </p>
      ) : isError ? (
        <p className="pane-empty pane-empty--error" role="alert">
          Could not load turns: {error.message}
        </p>
      ) : turns.length === 0 ? (
        <p className="pane-empty">No turns in this session yet.</p>
      ) : (
        <TurnTimeline
          turns={turns}
          selectedTurnId={selectedTurnId}
          onSelect={(turnId, viaKeyboard) => selectTurn(turnId, viaKeyboard ? 'replace' : 'push')}
          hasMore={hasNextPage}
          onLoadMore={onLoadMore}
        />
      )}
    </section>
  );
}
