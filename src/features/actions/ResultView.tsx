// The truthful outcome of a rollback: what changed, what was already in place, every error.
import type { RollbackResult } from '../../../server/protocol';
import { displayPath } from '../../lib/format';
import { PathList } from './PathList';

export function ResultView({ result, undone = false }: { result: RollbackResult; undone?: boolean }) {
  const changed = result.restored.length + result.deleted.length + result.movedBack.length;
  const headline = !result.ok
    ? `Finished with ${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'}`
    : result.rollbackTurnId === null && changed === 0
      ? 'Nothing to change: everything was already in place'
      : undone
        ? `Redone: ${changed === 1 ? '1 path is' : `${changed} paths are`} back as the turn left ${changed === 1 ? 'it' : 'them'}`
        : `Done: ${changed === 1 ? '1 path is back to its state' : `${changed} paths are back to their state`} before the turn`;
  return (
    <div className="result" role="status">
      <p className={`notice ${result.ok ? 'notice--ok' : 'notice--danger'}`}>{headline}</p>
      <PathList title="Restored" items={result.restored.map(displayPath)} />
      <PathList title="Deleted" items={result.deleted.map(displayPath)} />
      <PathList
        title="Moved back"
        items={result.movedBack.map((move) => `${displayPath(move.from)} → ${displayPath(move.to)}`)}
      />
      <PathList
        title="Kept both"
        items={(result.keptBoth ?? []).map(
          (kept) => `${displayPath(kept.uri)} — the restored version is ${displayPath(kept.copy)}`,
        )}
      />
      <PathList title="Already in place" items={result.unchanged.map(displayPath)} />
      {result.deletedMessages !== undefined && (
        <p className="muted">
          {result.deletedMessages} chat {result.deletedMessages === 1 ? 'message' : 'messages'} removed from
          turnback&apos;s record of the chat (the agent&apos;s own transcript keeps{' '}
          {result.deletedMessages === 1 ? 'it' : 'them'}: the agent still remembers).
        </p>
      )}
      {result.errors.length > 0 && (
        <section className="plan-group plan-group--danger" aria-label="Errors">
          <h3>
            Errors <span className="pane-count">{result.errors.length}</span>
          </h3>
          <ul>
            {result.errors.map((item) => (
              <li key={`${item.uri}-${item.code}`}>
                <code>{displayPath(item.uri)}</code> <strong>{item.code}</strong>
                {item.systemCode ? ` (${item.systemCode})` : ''} — {item.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
