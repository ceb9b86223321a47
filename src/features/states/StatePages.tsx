// Whole-page states: the console cannot show sessions for one of these reasons.
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client';

function StatePage({ title, tone, children }: { title: string; tone: 'neutral' | 'danger'; children: ReactNode }) {
  return (
    <main className={`state-page state-page--${tone}`} aria-labelledby="state-title">
      <div className="state-card">
        <h1 id="state-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function UnauthorizedPage() {
  return (
    <StatePage title="This console is not signed in" tone="danger">
      <p>
        The server did not accept this tab's token (401). The console token changes every time the server starts unless
        it is fixed with <code>--token</code>.
      </p>
      <p>
        Reopen the tokenized URL that <code>turnback serve</code> printed when it started, the first line of its output:
      </p>
      <pre className="state-code">turnback listening on {window.location.origin}/?token=&lt;token&gt;</pre>
      <p className="muted">
        Lost it? Restart the server with the same <code>--token</code>, or stop it and start it again to get a new URL.
      </p>
    </StatePage>
  );
}

/**
 * The service on this port did not prove it holds the token (docs/api.md "Security"): the tab
 * stopped asking anything of it, since another user may have taken the port.
 */
export function RestartedElsewherePage() {
  return (
    <StatePage title="turnback restarted elsewhere" tone="danger">
      <p>
        Open <code>turnback url</code>: it prints the address of your service.
      </p>
      <p>
        The turnback service this tab used is no longer at <code>{window.location.host}</code>, and whatever answers
        there now could not prove it is yours, so this tab stopped and sent it nothing.
      </p>
    </StatePage>
  );
}

/** No token in this tab: the console was opened some other way than the printed URL. */
export function NoTokenPage() {
  return (
    <StatePage title="Open the URL turnback printed" tone="neutral">
      <p>
        This tab has no console token. The console opens from the address <code>turnback serve</code> printed when it
        started, the first line of its output; the token in it stays in this tab only, so other sites and local ports
        never see it.
      </p>
      <pre className="state-code">turnback listening on {window.location.origin}/?token=&lt;token&gt;</pre>
      <p className="muted">A reload keeps working; a new tab needs the printed URL again.</p>
    </StatePage>
  );
}

export function ServerDownPage({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const detail =
    error instanceof ApiError && error.code !== 'NETWORK' ? `${error.status} ${error.code}: ${error.message}` : null;
  return (
    <StatePage title="The turnback server is not answering" tone="danger">
      <p>
        The console could not reach its server at <code>{window.location.host}</code>. It may have stopped or restarted.
        Start it again with <code>turnback serve --workspace &lt;dir&gt;</code> and open the URL it prints.
      </p>
      {detail && <p className="state-detail">{detail}</p>}
      <button type="button" className="btn btn--primary" onClick={onRetry}>
        Try again
      </button>
    </StatePage>
  );
}

export function LoadingPage() {
  return (
    <main className="state-page" aria-busy="true">
      <p className="muted" role="status">
        Loading sessions…
      </p>
    </main>
  );
}
