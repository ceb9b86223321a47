// Links between a turn and the rollbacks that touch it: a click jumps to the other turn.
import type { Turn } from '../../../server/protocol';
import type { TurnOf } from '../timeline/turnNames';

interface TurnRelationsProps {
  turn: Turn;
  turnOf: TurnOf;
  onOpen: (turnId: string) => void;
}

function TurnLink({ turnId, turnOf, onOpen }: { turnId: string } & Omit<TurnRelationsProps, 'turn'>) {
  const number = turnOf(turnId)?.number;
  if (number === undefined) return null;
  return (
    <button type="button" className="link-button" onClick={() => onOpen(turnId)} aria-label={`Open turn #${number}`}>
      #{number}
    </button>
  );
}

export function TurnRelations({ turn, turnOf, onOpen }: TurnRelationsProps) {
  const rollbackOf = turn.rollbackOf ?? [];
  if (rollbackOf.length === 0 && !turn.rolledBackBy) return null;
  return (
    <div className="relations">
      {rollbackOf.length > 0 && (
        <span>
          Undoes{' '}
          {rollbackOf.map((turnId) => (
            <TurnLink key={turnId} turnId={turnId} turnOf={turnOf} onOpen={onOpen} />
          ))}
        </span>
      )}
      {turn.rolledBackBy && (
        <span>
          Undone by <TurnLink turnId={turn.rolledBackBy} turnOf={turnOf} onOpen={onOpen} />
        </span>
      )}
    </div>
  );
}
