// Preview → confirm (with an explicit "overwrite anyway" for conflicts) → result → Undo.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ExecCommand, RollbackResult } from '../../../server/protocol';
import { isApiError } from '../../api/client';
import { useRollbackPreview } from '../../api/hooks';
import { rollbackMutation, undoMutation, type RollbackTarget } from '../../api/mutations';
import { useUiStore } from '../../store';
import { Modal } from './Modal';
import { PlanView, planChangesFiles } from './PlanView';
import { RestoreChoice } from './RestoreChoice';
import { ResultView } from './ResultView';
import { EXTERNAL_AGENT_NOTE, confirmLabel, dialogTitle, stepsText } from './dialogText';

export interface RollbackDialogProps {
  target: RollbackTarget;
  turnNumber: number;
  platform: string;
  /** The turn's shell commands: the preview says what they changed and what a rollback leaves. */
  commands?: ExecCommand[];
  /** The server is not answering: nothing can run until it is back. */
  offline?: boolean;
  /** For a rewind to a pin: its name (the dialog then speaks of the pin, not of a turn number). */
  pinName?: string;
  onClose: () => void;
}

export function RollbackDialog({
  target: initialTarget,
  turnNumber,
  platform,
  commands = [],
  offline = false,
  pinName,
  onClose,
}: RollbackDialogProps) {
  const [target, setTarget] = useState(initialTarget);
  const [overwrite, setOverwrite] = useState(false);
  const [result, setResult] = useState<RollbackResult | null>(null);
  const [undoResult, setUndoResult] = useState<RollbackResult | null>(null);
  const fileCount = target.uris?.length ?? 0;

  const preview = useRollbackPreview(target);

  // Each names what it makes stale in its meta: the query client's mutation cache refreshes the views.
  const rollback = useMutation({
    ...rollbackMutation(target),
    onSuccess: (answer) => {
      setResult(answer);
      // The ticked files have been dealt with; keeping them ticked invites a second, empty restore.
      if (target.mode === 'files') useUiStore.getState().setChecked(target.turnId, []);
    },
  });
  const undo = useMutation({
    ...undoMutation(target, result?.rollbackTurnId ?? ''),
    onSuccess: (answer) => setUndoResult(answer),
  });

  const conflictFromRun = isApiError(rollback.error, 'CONFLICT') ? rollback.error.conflicts : [];
  const conflicts = [...new Set([...(preview.data?.conflicts ?? []), ...conflictFromRun])];
  const withChat = target.mode === 'chat' || (target.mode === 'rewind' && target.withChat === true);
  const busy = rollback.isPending || undo.isPending;
  const steps = target.steps ?? [];
  const title =
    pinName !== undefined ? `Rewind to pin “${pinName}”` : dialogTitle(target.mode, turnNumber, fileCount, steps);
  // Keep both is chosen per conflict row, and asks for a new preview that writes the copies.
  const keepBoth = () => setTarget({ ...target, onConflict: 'keep-both' });

  const runError = rollback.error && !isApiError(rollback.error, 'CONFLICT') ? rollback.error : null;
  const undoConflicts = isApiError(undo.error, 'CONFLICT') ? undo.error.conflicts : [];

  let body;
  let footer;
  if (result) {
    body = (
      <>
        <ResultView result={result} />
        {undoResult && (
          <>
            <h3 className="result-divider">Redo</h3>
            <ResultView result={undoResult} undone />
          </>
        )}
        {undo.error && (
          <p className="notice notice--danger" role="alert">
            Undo failed: {undo.error.message}
            {undoConflicts.length > 0 && ` (changed since the undo: ${undoConflicts.join(', ')})`}
          </p>
        )}
      </>
    );
    footer = (
      <>
        {result.rollbackTurnId && !undoResult && (
          <button
            type="button"
            className="btn"
            disabled={busy || offline}
            onClick={() => undo.mutate(undoConflicts.length > 0)}
          >
            {undo.isPending ? 'Redoing…' : undoConflicts.length > 0 ? 'Redo anyway' : 'Redo'}
          </button>
        )}
        <button type="button" className="btn btn--primary" disabled={busy} onClick={onClose}>
          Close
        </button>
      </>
    );
  } else {
    const needsOverwrite = conflicts.length > 0 && !overwrite;
    body = (
      <>
        {pinName !== undefined && (
          <p>Every turn begun after the pin is undone: each path they changed returns to its state at the pin.</p>
        )}
        {target.mode === 'steps' && (
          <p>
            The paths {stepsText(steps)} changed return to their state before it; everything else stays as the turn left
            it.
          </p>
        )}
        {target.mode === 'rewind' && pinName === undefined && (
          <>
            <p>
              Every turn from #{turnNumber} on is undone: each file they touched returns to its state before #
              {turnNumber}.
            </p>
            <label className="checkbox-label">
              <input
                type="checkbox"
                checked={target.withChat === true}
                disabled={busy}
                onChange={(event) => setTarget({ ...target, withChat: event.target.checked })}
              />
              <span>Also delete the chat from turn #{turnNumber} on</span>
            </label>
          </>
        )}
        {(target.mode === 'turn' || target.mode === 'chat') && (
          <RestoreChoice
            withChat={target.mode === 'chat'}
            disabled={busy}
            onChange={(chat) => setTarget({ ...target, mode: chat ? 'chat' : 'turn' })}
          />
        )}
        {withChat && platform === 'claude-code' && <p className="notice notice--warn">{EXTERNAL_AGENT_NOTE}</p>}
        {preview.isPending ? (
          <p className="muted" role="status">
            Reading what will change…
          </p>
        ) : preview.isError ? (
          <p className="notice notice--danger" role="alert">
            Could not preview: {preview.error.message}
          </p>
        ) : (
          <PlanView
            plan={preview.data}
            conflicts={conflicts}
            showMessages={withChat}
            // A step's restore goes back to a state in the middle of the turn, which the turn's diff does not show.
            diffTurnId={target.mode === 'rewind' || target.mode === 'steps' ? null : target.turnId}
            commands={commands}
            onKeepBoth={busy || target.onConflict === 'keep-both' ? undefined : keepBoth}
          />
        )}
        {conflicts.length > 0 && (
          <label className="checkbox-label overwrite">
            <input
              type="checkbox"
              checked={overwrite}
              disabled={busy}
              onChange={(event) => setOverwrite(event.target.checked)}
            />
            <span>Overwrite anyway: discard the changes made to these files since the turn</span>
          </label>
        )}
        {runError && (
          <p className="notice notice--danger" role="alert">
            {isApiError(runError, 'TURN_ACTIVE')
              ? 'An agent turn is in progress in this session; try again when it ends.'
              : `Undo failed: ${runError.message}`}
          </p>
        )}
      </>
    );
    // A preview with nothing to restore (and no chat to remove) offers no action.
    const hasWork =
      preview.isSuccess && (planChangesFiles(preview.data) || (withChat && preview.data.messages.length > 0));
    footer = (
      <>
        <button type="button" className="btn" disabled={busy} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn--danger"
          disabled={busy || offline || !preview.isSuccess || needsOverwrite || !hasWork}
          title={preview.isSuccess && !hasWork ? 'Nothing to restore: every path is already as it was' : undefined}
          onClick={() => rollback.mutate(conflicts.length > 0 && overwrite)}
        >
          {rollback.isPending
            ? 'Working…'
            : pinName !== undefined
              ? 'Rewind to the pin'
              : confirmLabel(target.mode, fileCount, steps)}
        </button>
      </>
    );
  }

  return (
    <Modal title={title} onClose={onClose} dismissible={!busy} footer={footer}>
      {body}
    </Modal>
  );
}
