import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isApiError } from '../api/client';
import { keys } from '../api/keys';
import { useSessions } from '../api/hooks';
import { useRefusal } from '../api/handshake';
import { hasCredential } from '../api/token';
import { useUnauthorized } from '../api/useUnauthorized';
import { useOutage } from '../features/live/useOutage';
import { useLiveEvents } from '../features/live/useLiveEvents';
import { SessionsSidebar } from '../features/sessions/SessionsSidebar';
import { WorkspaceProblem } from '../features/workspaces/WorkspaceProblem';
import { useCurrentWorkspace, useWorkspaceFallback } from '../features/workspaces/useCurrentWorkspace';
import { EmptyState } from '../features/states/EmptyState';
import {
  LoadingPage,
  NoTokenPage,
  RestartedElsewherePage,
  ServerDownPage,
  UnauthorizedPage,
} from '../features/states/StatePages';
import { TimelinePane } from '../features/timeline/TimelinePane';
import { TurnDetailPane } from '../features/turn-detail/TurnDetailPane';
import { Header } from './Header';
import { useKeyboardNavigation } from './useKeyboardNavigation';
import { useSelection } from './useSelection';
import { useApplyTheme } from './useTheme';
import { useUrlSync } from './useUrlSync';

/** The diff viewer's lazily loaded chunk: the one script a tab would fetch later. */
const loadDiffViewer = () => import('../features/diff/TextDiff');

function Console() {
  useLiveEvents();
  // Fetched while this tab's service is the one that served the page: a script fetched after a
  // restart could come from whoever took the port, and would run with this tab's token.
  useEffect(() => {
    void loadDiffViewer();
  }, []);
  useKeyboardNavigation(useSelection());
  useWorkspaceFallback();
  const sessions = useSessions();
  const { workspaces } = useCurrentWorkspace();
  const unauthorized = useUnauthorized();
  const down = useOutage();
  const client = useQueryClient();
  // A workspace that cannot record, or a link to one the service does not know: the sidebar stays.
  const workspaceError =
    isApiError(sessions.error, 'WORKSPACE_NOT_RECORDING') || isApiError(sessions.error, 'WORKSPACE_NOT_FOUND')
      ? sessions.error
      : null;
  useEffect(() => {
    // The list learns why the workspace is not recording only once its store was tried.
    if (workspaceError) void client.invalidateQueries({ queryKey: keys.workspaces.all });
  }, [workspaceError, client]);

  if (unauthorized || isApiError(sessions.error, 'UNAUTHORIZED')) return <UnauthorizedPage />;
  // Switching workspaces keeps the frame: only a first load, with nothing to show yet, is a page of its own.
  if (sessions.isPending && workspaces.length === 0) return <LoadingPage />;
  if (sessions.isError && !sessions.data && !workspaceError)
    return <ServerDownPage error={sessions.error} onRetry={() => void sessions.refetch()} />;

  return (
    <div className="app">
      <Header />
      {(down || (sessions.isError && !workspaceError)) && (
        <div className="banner" role="alert">
          The server is not answering{sessions.error ? ` (${sessions.error.message})` : ''}. Showing the last data
          received; undo and redo are off until it is back.
        </div>
      )}
      {/* One workspace without sessions is the first-run page; with several, the sidebar still switches. */}
      {(sessions.data ?? []).length === 0 && workspaces.length <= 1 && !workspaceError ? (
        <EmptyState />
      ) : (
        // One frame either way, so the sidebar stays mounted when a workspace's answer turns into an error.
        <div className={`layout${workspaceError ? ' layout--problem' : ''}`}>
          <SessionsSidebar />
          {workspaceError ? (
            <WorkspaceProblem error={workspaceError} />
          ) : (
            <>
              <TimelinePane />
              <TurnDetailPane />
            </>
          )}
        </div>
      )}
      <footer className="key-hints" aria-label="Keyboard shortcuts">
        <kbd>j</kbd>/<kbd>k</kbd> turns · <kbd>n</kbd>/<kbd>p</kbd> files · <kbd>↑</kbd>/<kbd>↓</kbd> in a focused list
        · <kbd>→</kbd>/<kbd>←</kbd> between turns and files · <kbd>Esc</kbd> closes a dialog
      </footer>
    </div>
  );
}

export function App() {
  useUrlSync();
  useApplyTheme();
  const refusal = useRefusal();
  // Nothing is asked of a service that did not prove it holds the token: the tab stops here.
  if (refusal === 'restarted-elsewhere') return <RestartedElsewherePage />;
  if (refusal === 'wrong-token') return <UnauthorizedPage />;
  // Nothing is asked of the server without a token: every answer would be a 401.
  return hasCredential() ? <Console /> : <NoTokenPage />;
}
