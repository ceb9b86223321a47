import type { CSSProperties, Ref } from 'react';
import type { Turn } from '../../../server/protocol';
import { formatClock, plural } from '../../lib/format';
import { LineDelta, lineDeltaText } from './LineDelta';
import { TurnBadges, turnBadges } from './TurnBadges';
import { turnTitle, type TurnOf } from './turnNames';

export const TURN_ROW_HEIGHT = 58;

interface TurnRowProps {
  turn: Turn;
  selected: boolean;
  style: CSSProperties;
  turnOf: TurnOf;
  onSelect: () => void;
  /** The list measures each row's height through this (a row grows when its badges wrap). */
  measureRef?: Ref<HTMLDivElement>;
  /** Its place in the list, as the measuring list reads it (`data-index`). */
  index?: number;
}

export function turnOptionId(turnId: string): string {
  return `turn-option-${turnId}`;
}

/** Files as the detail counts them: a rename or move is one file, not its two paths. */
function shownFileCount(turn: Turn): number {
  return turn.fileCount - (turn.renameCount ?? 0);
}

export function TurnRow({ turn, selected, style, turnOf, onSelect, measureRef, index }: TurnRowProps) {
  const title = turnTitle(turn, turnOf);
  const files = shownFileCount(turn);
  const { added, removed } = turn.lines;
  const label = [
    `#${turn.number} ${title}`,
    plural(files, 'file'),
    ...(added > 0 || removed > 0 ? [lineDeltaText(added, removed)] : []),
    ...(turn.skippedCount > 0 ? [`${turn.skippedCount} skipped`] : []),
    ...turnBadges(turn, turnOf).map((badge) => badge.text),
  ].join(', ');
  return (
    <div
      ref={measureRef}
      data-index={index}
      id={turnOptionId(turn.turnId)}
      role="option"
      aria-selected={selected}
      aria-label={label}
      className={`turn-row${selected ? ' is-selected' : ''}${turn.status === 'rolled-back' ? ' is-rolled-back' : ''}${turn.kind === 'rollback' ? ' is-rollback' : ''}${turn.kind === 'pin' ? ' is-pin' : ''}`}
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
        <span className="turn-row__count">
          {turn.kind === 'pin'
            ? 'named point'
            : turn.status === 'active' && turn.fileCount === 0
              ? 'in progress'
              : plural(files, 'file')}
        </span>
        {(added > 0 || removed > 0) && (
          <LineDelta added={added} removed={removed} className="turn-row__lines" labelled={false} />
        )}
        {turn.skippedCount > 0 && <span className="turn-row__skipped">{turn.skippedCount} skipped</span>}
        <TurnBadges turn={turn} turnOf={turnOf} />
      </div>
    </div>
  );
}
