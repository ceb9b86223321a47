// A session that is gone (pruned by retention, or deleted) though a link or the history still
// names it: say so plainly and offer the sessions there are.
import { useSessions } from '../../api/hooks';
import { useUiStore } from '../../store';

export function MissingSession({ sessionId }: { sessionId: string }) {
  const { data: sessions = [] } = useSessions();
  const selectSession = useUiStore((state) => state.selectSession);
  return (
    <section className="timeline timeline--missing" aria-label="Turn timeline">
      <div className="missing-session" role="alert">
        <h2>This session no longer exists</h2>
        <p>
          <code>{sessionId}</code> was pruned (sessions idle longer than the retention period are removed) or deleted.
          Its turns and checkpoints are gone.
        </p>
        {sessions.length > 0 ? (
          <>
            <p>Open another session:</p>
            <ul className="missing-session__list">
              {sessions.slice(0, 8).map((session) => (
                <li key={session.sessionId}>
                  <button type="button" className="btn" onClick={() => selectSession(session.sessionId)}>
                    {session.title.trim() || session.sessionId}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>There are no sessions left.</p>
        )}
      </div>
    </section>
  );
}
