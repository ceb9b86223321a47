// While a turn runs, the engine has only its recorded operations; the per-file summary and
// the diffs exist once the turn is committed.
import type { Entry } from '../../../server/protocol';
import { displayPath } from '../../lib/format';

export function LiveEntries({ entries }: { entries: Entry[] }) {
  return (
    <div>
      <p className="notice notice--live">
        <span className="live-dot" aria-hidden="true" /> The agent is working: these are the operations recorded so far.
        Diffs and restore appear when the turn ends.
      </p>
      {entries.length === 0 ? (
        <p className="pane-empty">No file changes yet.</p>
      ) : (
        <ol className="file-rows live-entries" aria-label="Operations recorded so far">
          {entries.map((entry) => (
            <li key={entry.seq} className="file-row file-row--live">
              <span className="change change--modified">{entry.op}</span>
              <span className="file-row__name">
                {displayPath(entry.uri)}
                {entry.to ? ` → ${displayPath(entry.to)}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
