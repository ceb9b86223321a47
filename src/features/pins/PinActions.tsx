// What a pin offers in its turn's toolbar: rewind to it (through the rollback dialog and its
// preview: every turn begun after the pin is taken back) and unpin it.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Turn } from '../../../server/protocol';
import { keys } from '../../api/keys';
import { deletePin, PINS_SESSION } from '../../api/pins';
import type { RollbackTarget } from '../../api/rollbackTarget';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { RollbackDialog } from '../actions/RollbackDialog';

interface PinActionsProps {
  turn: Turn;
  blockedReason?: string;
  offline: boolean;
}

export function PinActions({ turn, blockedReason, offline }: PinActionsProps) {
  const workspace = useWorkspaceScope();
  const [target, setTarget] = useState<RollbackTarget | null>(null);
  const unpin = useMutation({
    mutationFn: () => deletePin(workspace, turn.turnId),
    meta: {
      invalidates: [
        keys.in(workspace).pins.all,
        keys.in(workspace).turns.ofSession(PINS_SESSION),
        keys.in(workspace).manifest.ofTurn(turn.turnId),
      ],
    },
  });
  const pinned = turn.pinned !== false;
  return (
    <>
      <button
        type="button"
        className="btn btn--primary"
        disabled={blockedReason !== undefined}
        title={
          blockedReason ?? 'Take back every turn begun after this pin: each path they changed returns to its state here'
        }
        onClick={() =>
          setTarget({ workspace, mode: 'rewind', sessionId: PINS_SESSION, turnId: turn.turnId, withChat: false })
        }
      >
        Rewind to this pin
      </button>
      {pinned && (
        <button
          type="button"
          className="btn"
          disabled={offline || unpin.isPending}
          title="Give this point back to retention: it may be pruned like any other"
          onClick={() => unpin.mutate()}
        >
          Unpin
        </button>
      )}
      {unpin.isError && (
        <span className="action-bar__note" role="alert">
          Could not unpin: {unpin.error.message}
        </span>
      )}
      {target && (
        <RollbackDialog
          target={target}
          turnNumber={turn.number}
          platform=""
          pinName={turn.title}
          offline={offline}
          onClose={() => setTarget(null)}
        />
      )}
    </>
  );
}
