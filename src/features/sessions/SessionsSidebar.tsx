// The sidebar: the service's workspaces, each with its name, root and whether it records, the
// current one with its sessions below it; a server without workspaces shows its sessions alone.
import type { Session } from '../../../server/protocol';
import { useSessions } from '../../api/hooks';
import { useSelection } from '../../app/useSelection';
import { formatRelative, plural } from '../../lib/format';
import { useUiStore } from '../../store';
import { PinList } from '../pins/PinList';
import { WorkspaceItem } from '../workspaces/WorkspaceItem';
import { useCurrentWorkspace } from '../workspaces/useCurrentWorkspace';

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

/** `quiet`: say nothing when there are none (a workspace that is not recording says why instead). */
function SessionList({ nested = false, quiet = false }: { nested?: boolean; quiet?: boolean }) {
  const { data: sessions = [] } = useSessions();
  const selectedId = useSelection().sessionId;
  const selectSession = useUiStore((state) => state.selectSession);
  if (nested && sessions.length === 0) return quiet ? null : <p className="session-list__empty">No sessions yet.</p>;
  return (
    <ul
      className={`session-list${nested ? ' session-list--nested' : ''}`}
      aria-label={nested ? 'Sessions of this workspace' : undefined}
    >
      {sessions.map((session) => (
        <SessionItem
          key={session.sessionId}
          session={session}
          selected={session.sessionId === selectedId}
          onSelect={() => selectSession(session.sessionId)}
        />
      ))}
    </ul>
  );
}

export function SessionsSidebar() {
  const { data: sessions = [] } = useSessions();
  const { workspaces, current } = useCurrentWorkspace();
  const selectWorkspace = useUiStore((state) => state.selectWorkspace);

  if (workspaces.length === 0)
    return (
      <nav className="sidebar" aria-label="Sessions">
        <h2 className="pane-title">
          Sessions <span className="pane-count">{sessions.length}</span>
        </h2>
        <SessionList />
        <PinList />
      </nav>
    );

  return (
    <nav className="sidebar" aria-label="Sessions">
      <h2 className="pane-title">
        Workspaces <span className="pane-count">{workspaces.length}</span>
      </h2>
      <ul className="workspace-list" aria-label="Workspaces">
        {workspaces.map((workspace) => {
          const isCurrent = workspace.id === current?.id;
          return (
            <WorkspaceItem
              key={workspace.id}
              workspace={workspace}
              current={isCurrent}
              // The default workspace is addressed by its id once chosen, so links name it.
              onSelect={() => selectWorkspace(workspace.id)}
            >
              {/* A workspace that cannot record may still show what it recorded before (a full disk). */}
              {isCurrent && <SessionList nested quiet={!workspace.recording} />}
            </WorkspaceItem>
          );
        })}
      </ul>
      <PinList />
    </nav>
  );
}
