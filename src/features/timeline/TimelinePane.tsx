import { useCallback } from 'react';
import { useSessionTurns } from '../../api/hooks';
import { useSelection } from '../../app/useSelection';
import { useUiStore } from '../../store';
import { TurnTimeline } from './TurnTimeline';

export function TimelinePane() {
  const { sessionId, session, turnId: selectedTurnId } = useSelection();
  const selectTurn = useUiStore((state) => state.selectTurn);
  const { turns, isPending, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage } = useSessionTurns(sessionId);

  const onLoadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [isFetchingNextPage, fetchNextPage]);

  return (
    <section className="timeline" aria-label="Turn timeline">
      <h2 className="pane-title">
        Turns <span className="pane-count">{Math.max(session?.turnCount ?? 0, turns.length)}</span>
      </h2>
      {!sessionId ? (
        <p className="pane-empty">Select a session.</p>
      ) : isPending ? (
        <p className="pane-empty" role="status">
          Loading turns…
        </p>
      ) : isError && turns.length === 0 ? (
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
