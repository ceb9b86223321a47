// The status badges of a turn, shared by the timeline row and the turn detail header.
import type { Turn } from '../../../server/protocol';

export const EXEC_TOOLTIP =
  'Shell commands ran during this turn. Their side effects (files they wrote, packages, network) are not covered by rollback.';

function rollbackOfLabel(turn: Turn, numberOf: (turnId: string) => number | undefined): string {
  const numbers = (turn.rollbackOf ?? []).map(numberOf).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
  if (numbers.length === 0) return 'rollback';
  if (numbers.length === 1) return `rollback of #${numbers[0]}`;
  return `rewind to #${numbers[0]} (${numbers.length} turns)`;
}

export function TurnBadges({ turn, numberOf }: { turn: Turn; numberOf: (turnId: string) => number | undefined }) {
  return (
    <span className="badges">
      {turn.status === 'active' && (
        <span className="badge badge--live">
          <span className="live-dot" aria-hidden="true" /> live
        </span>
      )}
      {turn.kind === 'rollback' && <span className="badge badge--rollback">{rollbackOfLabel(turn, numberOf)}</span>}
      {turn.status === 'rolled-back' && <span className="badge badge--rolled-back">rolled back</span>}
      {turn.status === 'partially-rolled-back' && <span className="badge badge--partial">partially rolled back</span>}
      {turn.interrupted && (
        <span className="badge badge--danger" title="The server stopped during this turn; its end state was read from disk on restart.">
          interrupted
        </span>
      )}
      {turn.execUsed && (
        <span className="badge badge--warn" title={EXEC_TOOLTIP} aria-description={EXEC_TOOLTIP}>
          partially unprotected
        </span>
      )}
    </span>
  );
}
