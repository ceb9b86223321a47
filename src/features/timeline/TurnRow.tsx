import type { CSSProperties } from 'react';
import type { Turn } from '../../../server/protocol';
import { formatClock, plural } from '../../lib/format';
import { TurnBadges, turnBadges } from './TurnBadges';

export const TURN_ROW_HEIGHT = 58;

interface TurnRowProps {
  turn: Turn;
  selected: boolean;
  style: CSSProperties;
  numberOf: (turnId: string) => number | undefined;
  onSelect: () => void;
}

export function turnOptionId(turnId: string): string {
  return `turn-option-${turnId}`;
}

export function TurnRow({ turn, selected, style, numberOf, onSelect }: TurnRowProps) {
  const title = turn.title.trim() || (turn.kind === 'rollback' ? 'Rollback' : '(no message)');
  const label = [
    `#${turn.number} ${title}`,
    plural(turn.fileCount, 'file'),
    ...(turn.skippedCount > 0 ? [`${turn.skippedCount} skipped`] : []),
    ...turnBadges(turn, numberOf).map((badge) => badge.text),
  ].join(', ');
  return (
    <div
      id={turnOptionId(turn.turnId)}
      role="option"
      aria-selected={selected}
      aria-label={label}
      className={`turn-row${selected ? ' is-selected' : ''}${turn.status === 'rolled-back' ? ' is-rolled-back' : ''}${turn.kind === 'rollback' ? ' is-rollback' : ''}`}
      style={style}
      onClick={onSelect}
    >
      <div className="turn-row__line">
        <span className="turn-row__number">#{turn.number}</span>
        <span className="turn-row__title" title={turn.title}>
          {title}
        </span>
        <time className="turn-row__time" dateTime={turn.startedAt}>
          {formatClock(turn.startedAt)}
        </time>
      </div>
      <div className="turn-row__line turn-row__line--meta">
        <span className="turn-row__count">{turn.status === 'active' && turn.fileCount === 0 ? 'in progress' : plural(turn.fileCount, 'file')}</span>
        {turn.skippedCount > 0 && <span className="turn-row__skipped">{turn.skippedCount} skipped</span>}
        <TurnBadges turn={turn} numberOf={numberOf} />
      </div>
    </div>
  );
}
