import { useState } from 'react';
import type { Turn } from '../../../server/protocol';
import type { RollbackMode, RollbackTarget } from '../../api/mutations';
import { plural } from '../../lib/format';
import { RollbackDialog } from './RollbackDialog';

interface ActionBarProps {
  turn: Turn;
  platform: string;
  checkedFiles: string[];
  /** An agent turn is running in this session: the server refuses rollbacks until it ends. */
  sessionBusy: boolean;
}

export function ActionBar({ turn, platform, checkedFiles, sessionBusy }: ActionBarProps) {
  const [target, setTarget] = useState<RollbackTarget | null>(null);
  const open = (mode: RollbackMode) =>
    setTarget({
      mode,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      uris: mode === 'files' ? checkedFiles : undefined,
      withChat: mode === 'rewind' ? false : undefined,
    });
  const busyReason = sessionBusy ? 'An agent turn is in progress in this session; rollbacks wait until it ends.' : undefined;

  return (
    <div className="action-bar" role="toolbar" aria-label="Turn actions">
      <button type="button" className="btn" disabled={sessionBusy} title={busyReason} onClick={() => open('turn')}>
        Roll back turn
      </button>
      <button
        type="button"
        className="btn"
        disabled={sessionBusy || checkedFiles.length === 0}
        title={busyReason ?? (checkedFiles.length === 0 ? 'Tick files in the list to restore only those' : undefined)}
        onClick={() => open('files')}
      >
        Roll back {checkedFiles.length > 0 ? plural(checkedFiles.length, 'selected file') : 'selected files'}
      </button>
      <button type="button" className="btn" disabled={sessionBusy} title={busyReason} onClick={() => open('chat')}>
        Roll back with chat
      </button>
      <button type="button" className="btn" disabled={sessionBusy} title={busyReason} onClick={() => open('rewind')}>
        Rewind to here
      </button>
      {sessionBusy && <span className="action-bar__note">Agent is working…</span>}
      {target && (
        <RollbackDialog target={target} turnNumber={turn.number} platform={platform} onClose={() => setTarget(null)} />
      )}
    </div>
  );
}
