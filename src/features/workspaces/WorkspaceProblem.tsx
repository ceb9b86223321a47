// In place of the timeline and the turn: why the chosen workspace shows nothing (its store
// cannot be opened, or the link names a workspace the service does not know). The sidebar
// stays, so another workspace is one click away.
import type { ApiError } from '../../api/client';
import { useUiStore } from '../../store';

export function WorkspaceProblem({ error }: { error: ApiError }) {
  const selectWorkspace = useUiStore((state) => state.selectWorkspace);
  const unknown = error.code === 'WORKSPACE_NOT_FOUND';
  return (
    <section className="workspace-problem" role="alert" aria-labelledby="workspace-problem-title">
      <h2 id="workspace-problem-title">{unknown ? 'No such workspace' : 'This workspace is not recording'}</h2>
      <p>
        {unknown
          ? 'The link names a workspace this turnback service does not know (it may have been registered under another service).'
          : 'turnback cannot open or write its store, so agent turns in it are not recorded and cannot be undone until this is fixed.'}
      </p>
      <pre className="state-code">{error.message}</pre>
      {unknown && (
        <button type="button" className="btn" onClick={() => selectWorkspace(null)}>
          Open the default workspace
        </button>
      )}
    </section>
  );
}
