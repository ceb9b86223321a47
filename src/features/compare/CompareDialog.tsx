// Two points side by side: each path's state at the end of one turn (or pin) against the end
// of another, chosen from the session's turns and the workspace's pins, each path's diff
// through the same diff panel as a turn's.
import { useState } from 'react';
import type { Turn } from '../../../server/protocol';
import { useComparison, usePins, useSessions, useSessionTurns } from '../../api/hooks';
import { PINS_SESSION } from '../../api/pins';
import { displayPath, plural } from '../../lib/format';
import { Modal } from '../actions/Modal';
import { DiffPanel } from '../diff/DiffPanel';
import { changeLabel } from '../turn-detail/fileChange';

interface Point {
  turnId: string;
  label: string;
}

/**
 * The points one can compare with: the session's turns, newest first, then the pins. From a
 * pin, the turns of the session most recently active come first (a pin's session holds pins only).
 */
function usePoints(turn: Turn): Point[] {
  const { turns: own } = useSessionTurns(turn.sessionId);
  const { data: sessions = [] } = useSessions();
  const fromPin = turn.sessionId === PINS_SESSION;
  const agentSession = fromPin
    ? (sessions.find((session) => session.sessionId !== PINS_SESSION)?.sessionId ?? null)
    : null;
  const { turns: recent } = useSessionTurns(agentSession);
  const { data: pins = [] } = usePins();
  const turns = fromPin ? [...recent, ...own] : own;
  const points: Point[] = turns
    .filter((item) => item.status !== 'active')
    .map((item) => ({
      turnId: item.turnId,
      label: item.kind === 'pin' ? `pin “${item.title}”` : `#${item.number} ${item.title.trim() || '(no message)'}`,
    }));
  const seen = new Set(points.map((point) => point.turnId));
  for (const pin of [...pins].reverse())
    if (!seen.has(pin.turnId)) points.push({ turnId: pin.turnId, label: `pin “${pin.name}”` });
  if (!seen.has(turn.turnId) && !points.some((point) => point.turnId === turn.turnId))
    points.unshift({ turnId: turn.turnId, label: `#${turn.number} ${turn.title}` });
  return points;
}

function PointPicker({
  label,
  value,
  points,
  onChange,
}: {
  label: string;
  value: string;
  points: Point[];
  onChange: (turnId: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {points.map((point) => (
          <option key={point.turnId} value={point.turnId}>
            {point.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function CompareDialog({ turn, onClose }: { turn: Turn; onClose: () => void }) {
  const points = usePoints(turn);
  // The other end defaults to the turn before this one (else the newest other point).
  const other = points.find((point) => point.turnId !== turn.turnId)?.turnId ?? turn.turnId;
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState(turn.turnId);
  const fromId = from ?? other;
  const comparison = useComparison(fromId, to);
  const [uri, setUri] = useState<string | null>(null);
  const labelOf = (turnId: string) => points.find((point) => point.turnId === turnId)?.label ?? turnId;
  const files = comparison.data?.files ?? [];
  const shown = files.find((file) => file.uri === uri) ?? files[0];

  return (
    <Modal
      title={turn.kind === 'pin' ? `Compare pin “${turn.title}”` : `Compare turn #${turn.number}`}
      onClose={onClose}
      wide
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="compare-pick">
        <PointPicker
          label="From (the end of)"
          value={fromId}
          points={points}
          onChange={(id) => {
            setFrom(id);
            setUri(null);
          }}
        />
        <PointPicker
          label="To (the end of)"
          value={to}
          points={points}
          onChange={(id) => {
            setTo(id);
            setUri(null);
          }}
        />
      </div>
      {fromId === to ? (
        <p className="muted">Choose two different points.</p>
      ) : comparison.isPending ? (
        <p className="muted" role="status">
          Comparing…
        </p>
      ) : comparison.isError ? (
        <p className="notice notice--danger" role="alert">
          Could not compare: {comparison.error.message}
        </p>
      ) : files.length === 0 ? (
        <p className="notice">Every path is the same at both points.</p>
      ) : (
        <>
          <p className="muted">
            {files.length === 1 ? '1 path differs' : `${plural(files.length, 'path')} differ`} between them.
          </p>
          <ul className="compare-files" aria-label="Paths that differ">
            {files.map((file) => (
              <li key={file.uri}>
                <button
                  type="button"
                  className={`compare-file${file === shown ? ' is-selected' : ''}`}
                  aria-pressed={file === shown}
                  aria-label={`Compare ${displayPath(file.uri)}`}
                  onClick={() => setUri(file.uri)}
                >
                  <span className={`change change--${file.change}`}>
                    {changeLabel({ uri: file.uri, change: file.change, before: file.before, after: file.after })}
                  </span>
                  <code>{displayPath(file.uri)}</code>
                </button>
              </li>
            ))}
          </ul>
          {shown && (
            <DiffPanel
              key={`${fromId}:${to}:${shown.uri}`}
              turnId={to}
              file={{ uri: shown.uri, change: shown.change, before: shown.before, after: shown.after }}
              turnNumber={turn.number}
              compare={{ from: fromId, to, fromLabel: labelOf(fromId), toLabel: labelOf(to) }}
            />
          )}
        </>
      )}
    </Modal>
  );
}
