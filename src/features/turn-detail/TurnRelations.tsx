// Links between a turn and the rollbacks that touch it: a click jumps to the other turn.
import type { Turn } from '../../../server/protocol';

interface TurnRelationsProps {
  turn: Turn;
  numberOf: (turnId: string) => number | undefined;
  onOpen: (turnId: string) => void;
}

function TurnLink({ turnId, numberOf, onOpen }: { turnId: string } & Omit<TurnRelationsProps, 'turn'>) {
  const number = numberOf(turnId);
  if (number === undefined) return null;
  return (
    <button type="button" className="link-button" onClick={() => onOpen(turnId)} aria-label={`Open turn #${number}`}>
      #{number}
    </button>
  );
}

export function TurnRelations({ turn, numberOf, onOpen }: TurnRelationsProps) {
  const rollbackOf = turn.rollbackOf ?? [];
  if (rollbackOf.length === 0 && !turn.rolledBackBy) return null;
  return (
    <div className="relations">
      {rollbackOf.length > 0 && (
        <span>
          Rolls back{' '}
          {rollbackOf.map((turnId) => (
            <TurnLink key={turnId} turnId={turnId} numberOf={numberOf} onOpen={onOpen} />
          ))}
        </span>
      )}
      {turn.rolledBackBy && (
        <span>
          Rolled back by <TurnLink turnId={turn.rolledBackBy} numberOf={numberOf} onOpen={onOpen} />
        </span>
      )}
    </div>
  );
}
