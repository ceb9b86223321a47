import type { Session } from '../../../server/protocol';
import { useSessions } from '../../api/hooks';
import { useSelection } from '../../app/useSelection';
import { formatRelative, plural } from '../../lib/format';
import { useUiStore } from '../../store';

function SessionItem({ session, selected, onSelect }: { session: Session; selected: boolean; onSelect: () => void }) {
  const live = session.activeTurnId !== null;
  return (
    <li>
      <button
        type="button"
        className={`session-item${selected ? ' is-selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        aria-label={`Session ${session.sessionId}, ${session.platform}:${session.sessionType}, ${plural(session.turnCount, 'turn')}${live ? ', turn in progress' : ''}${session.title ? `: ${session.title}` : ''}`}
        onClick={onSelect}
      >
        <span className="session-item__top">
          <span className="session-item__title" title={session.title || undefined}>
            {session.title.trim() || `${session.platform}:${session.sessionType}`}
          </span>
          {live && <span className="live-dot" title="A turn is in progress" />}
        </span>
        <span className="session-item__id" title={session.sessionId}>
          {session.platform}:{session.sessionType} · {session.sessionId}
        </span>
        <span className="session-item__meta">
          <span>{plural(session.turnCount, 'turn')}</span>
          <span title={new Date(session.lastActivity).toLocaleString()}>{formatRelative(session.lastActivity)}</span>
        </span>
      </button>
    </li>
  );
}

export function SessionsSidebar() {
  const { data: sessions = [] } = useSessions();
  const selectedId = useSelection().sessionId;
  const selectSession = useUiStore((state) => state.selectSession);

  return (
    <nav className="sidebar" aria-label="Sessions">
      <h2 className="pane-title">
        Sessions <span className="pane-count">{sessions.length}</span>
      </h2>
      <ul className="session-list">
        {sessions.map((session) => (
          <SessionItem
            key={session.sessionId}
            session={session}
            selected={session.sessionId === selectedId}
            onSelect={() => selectSession(session.sessionId)}
          />
        ))}
      </ul>
    </nav>
  );
}
