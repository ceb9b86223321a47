import { useState } from 'react';
import type { Turn } from '../../../server/protocol';
import type { RollbackMode, RollbackTarget } from '../../api/mutations';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { plural } from '../../lib/format';
import type { TurnOf } from '../timeline/turnNames';
import { CompareDialog } from '../compare/CompareDialog';
import { PinActions } from '../pins/PinActions';
import { RollbackDialog } from './RollbackDialog';

interface ActionBarProps {
  turn: Turn;
  platform: string;
  checkedFiles: string[];
  /** An agent turn is running in this session: the server refuses rollbacks until it ends. */
  sessionBusy: boolean;
  /** The server is not answering: nothing can be rolled back until it is. */
  offline: boolean;
  turnOf: TurnOf;
}

/** The rollback turn whose undo this turn offers: itself when it is one, or the one that rolled it back. */
function undoableRollback(turn: Turn): string | null {
  if (turn.kind === 'rollback' && turn.status !== 'rolled-back') return turn.turnId;
  return turn.rolledBackBy ?? null;
}

export function ActionBar({ turn, platform, checkedFiles, sessionBusy, offline, turnOf }: ActionBarProps) {
  const [target, setTarget] = useState<RollbackTarget | null>(null);
  const [comparing, setComparing] = useState(false);
  const workspace = useWorkspaceScope();
  const open = (mode: RollbackMode) =>
    setTarget({
      workspace,
      mode,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      uris: mode === 'files' ? checkedFiles : undefined,
      withChat: mode === 'rewind' ? false : undefined,
    });
  const blocked = sessionBusy || offline;
  const reason = offline
    ? 'The server is not answering; undo and redo wait until it is back.'
    : sessionBusy
      ? 'An agent turn is in progress in this session; undo and redo wait until it ends.'
      : undefined;
  const undoId = undoableRollback(turn);
  const dialogNumber = target?.mode === 'undo' ? (turnOf(target.turnId)?.number ?? turn.number) : turn.number;
  const compare = (
    <>
      <button
        type="button"
        className="btn"
        title="See each path as it was at the end of this turn against another turn or pin"
        onClick={() => setComparing(true)}
      >
        Compare with…
      </button>
      {comparing && <CompareDialog turn={turn} onClose={() => setComparing(false)} />}
    </>
  );

  // A pin changed nothing: what it offers is to go back to it.
  if (turn.kind === 'pin')
    return (
      <div className="action-bar" role="toolbar" aria-label="Turn actions">
        <PinActions turn={turn} blockedReason={reason} offline={offline} />
        {compare}
      </div>
    );

  return (
    <div className="action-bar" role="toolbar" aria-label="Turn actions">
      {undoId && (
        <button
          type="button"
          className="btn btn--primary"
          disabled={blocked}
          title={reason ?? 'Take back this undo: files, statuses and chat return to how they were before it'}
          onClick={() => setTarget({ workspace, mode: 'undo', sessionId: turn.sessionId, turnId: undoId })}
        >
          Redo
        </button>
      )}
      <button type="button" className="btn" disabled={blocked} title={reason} onClick={() => open('turn')}>
        Undo turn
      </button>
      <button
        type="button"
        className="btn"
        disabled={blocked || checkedFiles.length === 0}
        title={reason ?? (checkedFiles.length === 0 ? 'Tick files in the list to restore only those' : undefined)}
        onClick={() => open('files')}
      >
        Undo {checkedFiles.length > 0 ? plural(checkedFiles.length, 'selected file') : 'selected files'}
      </button>
      <button type="button" className="btn" disabled={blocked} title={reason} onClick={() => open('chat')}>
        Undo turn and its chat
      </button>
      <button type="button" className="btn" disabled={blocked} title={reason} onClick={() => open('rewind')}>
        Rewind to here
      </button>
      {compare}
      {sessionBusy && !offline && <span className="action-bar__note">Agent is working…</span>}
      {target && (
        <RollbackDialog
          target={target}
          turnNumber={dialogNumber}
          platform={platform}
          commands={target.mode === 'undo' ? [] : turn.execCommands}
          offline={offline}
          onClose={() => setTarget(null)}
        />
      )}
    </div>
  );
}
