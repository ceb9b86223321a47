// The steps of a turn (each tool call or shell command that changed something, in order),
// each with the paths it changed and "Undo this step", which opens the rollback dialog on
// that step alone: its paths go back to their state before it, the rest stays.
import { useState } from 'react';
import type { Step, Turn } from '../../../server/protocol';
import { useTurnSteps } from '../../api/hooks';
import type { RollbackTarget } from '../../api/rollbackTarget';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { displayPath, plural } from '../../lib/format';
import { RollbackDialog } from '../actions/RollbackDialog';
import { FOLDER_SUMMARY_THRESHOLD } from './folderCounts';
import { FolderSummary } from './FolderSummary';

interface StepsListProps {
  turn: Turn;
  platform: string;
  /** Rollbacks wait (an agent turn runs in the session, or the server is not answering): why. */
  blockedReason?: string;
  offline: boolean;
}

function StepPaths({ step }: { step: Step }) {
  return (
    <ul className="step__paths" aria-label={`Paths changed by step ${step.index}`}>
      {step.paths.map((uri) => (
        <li key={uri}>
          <code>{displayPath(uri)}</code>
        </li>
      ))}
    </ul>
  );
}

function StepRow({ step, onUndo, blockedReason }: { step: Step; onUndo: () => void; blockedReason?: string }) {
  return (
    <li className="step">
      <div className="step__line">
        <span className="step__index">{step.index}</span>
        <span className={`badge badge--${step.kind === 'command' ? 'quiet' : 'rollback'}`}>
          {step.kind === 'command' ? 'command' : 'tool'}
        </span>
        <code className="step__title">{step.title}</code>
        <button
          type="button"
          className="btn btn--small"
          disabled={blockedReason !== undefined}
          title={blockedReason ?? `Put the paths step ${step.index} changed back to their state before it`}
          aria-label={`Undo step ${step.index}: ${step.title}`}
          onClick={onUndo}
        >
          Undo this step
        </button>
      </div>
      {step.paths.length > FOLDER_SUMMARY_THRESHOLD ? (
        <div className="step__paths">
          <FolderSummary
            uris={step.paths}
            label={`Folders changed by step ${step.index}`}
            listAll={() => <StepPaths step={step} />}
          />
        </div>
      ) : (
        <StepPaths step={step} />
      )}
    </li>
  );
}

export function StepsList({ turn, platform, blockedReason, offline }: StepsListProps) {
  const workspace = useWorkspaceScope();
  const steps = useTurnSteps(turn.turnId);
  const [target, setTarget] = useState<RollbackTarget | null>(null);
  if (steps.isPending)
    return (
      <p className="pane-empty" role="status">
        Loading steps…
      </p>
    );
  if (steps.isError)
    return (
      <p className="pane-empty pane-empty--error" role="alert">
        Could not load the steps: {steps.error.message}
      </p>
    );
  if (steps.data.length === 0) return <p className="pane-empty">No step of this turn changed anything.</p>;
  return (
    <section aria-label="Steps">
      <p className="muted steps__note">
        {plural(steps.data.length, 'step')}, in the order they first changed something. Undoing one puts back only the
        paths it changed.
      </p>
      <ol className="steps" aria-label="Steps of this turn">
        {steps.data.map((step) => (
          <StepRow
            key={step.stepId}
            step={step}
            blockedReason={blockedReason}
            onUndo={() =>
              setTarget({
                workspace,
                mode: 'steps',
                sessionId: turn.sessionId,
                turnId: turn.turnId,
                steps: [step.index],
              })
            }
          />
        ))}
      </ol>
      {target && (
        <RollbackDialog
          target={target}
          turnNumber={turn.number}
          platform={platform}
          offline={offline}
          onClose={() => setTarget(null)}
        />
      )}
    </section>
  );
}
