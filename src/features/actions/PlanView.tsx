// What a rollback will do, read from its preview Plan: each path's action with the diff of
// what it holds now against what it will hold, who changed a conflicting path since, the
// folders it creates or removes, the turn's shell commands, and the chat it deletes.
import type { ExecCommand, Plan, PlanAction } from '../../../server/protocol';
import { displayPath, plural } from '../../lib/format';
import { MessageList } from '../turn-detail/ChatMessages';
import { FOLDER_SUMMARY_THRESHOLD } from '../turn-detail/folderCounts';
import { FolderSummary } from '../turn-detail/FolderSummary';
import { RESTORE_ERROR_TEXT } from './dialogText';
import { PathList, type PathItem } from './PathList';
import { LaterTurnDiff, RestoreDiff } from './RestoreDiff';

interface PlanViewProps {
  plan: Plan;
  conflicts: string[];
  showMessages: boolean;
  /** The turn whose before side is what a restore writes back; null when a diff cannot be shown (a rewind). */
  diffTurnId?: string | null;
  commands?: ExecCommand[];
  /** Offered on each conflict row: keep the path as it is and write the restored version beside it. */
  onKeepBoth?: () => void;
}

const KEEP_BOTH_TITLE =
  'Leave this file as it is now and write the version the undo restores beside it (<name>.turnback-<turn>)';

function actionItems(
  actions: PlanAction[],
  diffTurnId: string | null,
  label: (action: PlanAction) => string,
): PathItem[] {
  return actions.map((action) => ({
    key: action.uri,
    label: label(action),
    detail: diffTurnId
      ? {
          open: 'Show diff',
          render: () => (
            <RestoreDiff turnId={diffTurnId} uri={action.uri} from={action.from} conflict={action.conflict} />
          ),
        }
      : undefined,
  }));
}

function conflictItems(conflicts: string[], actions: PlanAction[], onKeepBoth?: () => void): PathItem[] {
  const byUri = new Map(actions.map((action) => [action.uri, action]));
  return conflicts.map((uri) => {
    const author = byUri.get(uri)?.conflictTurn;
    const step = byUri.get(uri)?.conflictStep;
    const path = displayPath(uri);
    const keepBoth = onKeepBoth
      ? { label: 'Keep both', ariaLabel: `Keep both versions of ${path}`, title: KEEP_BOTH_TITLE, run: onKeepBoth }
      : undefined;
    if (step)
      return {
        key: uri,
        label: `${path} — changed again by step ${step.index} “${step.title}” of this turn`,
        action: keepBoth,
      };
    if (!author)
      return { key: uri, label: `${path} — changed outside any turn (an editor or another program)`, action: keepBoth };
    const name = `#${author.number}${author.title.trim() ? ` “${author.title.trim()}”` : ''}`;
    return {
      key: uri,
      label: `${path} — changed since by ${name}`,
      detail: {
        open: `Show #${author.number}'s change`,
        render: () => <LaterTurnDiff turnId={author.turnId} uri={uri} number={author.number} />,
      },
      action: keepBoth,
    };
  });
}

function CommandsNote({ commands }: { commands: ExecCommand[] }) {
  if (commands.length === 0) return null;
  return (
    <section className="plan-group plan-group--warn" aria-label="Shell commands of this turn">
      <h3>
        Shell commands in this turn <span className="pane-count">{commands.length}</span>
      </h3>
      <p className="muted plan-group__note">
        The files they changed in the workspace are restored with the rest; anything else they did (packages, services,
        the network, files outside the workspace) stays as it is.
      </p>
      <ul>
        {commands.map((command) => (
          <li key={command.execId}>
            <code>{command.command}</code>{' '}
            <span className="muted">
              {command.changed === null
                ? '— still running when the turn ended: what it changed is not known'
                : command.changed.length === 0
                  ? '— changed no tracked file'
                  : command.changed.length > FOLDER_SUMMARY_THRESHOLD
                    ? '— changed:'
                    : `— changed ${command.changed.map(displayPath).join(', ')}`}
            </span>
            {command.changed && command.changed.length > FOLDER_SUMMARY_THRESHOLD && (
              <FolderSummary
                uris={command.changed}
                label={`Folders changed by ${command.command}`}
                listAll={() => <p className="muted">{command.changed!.map(displayPath).join(', ')}</p>}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Whether applying the plan would change a path or a folder (else "nothing to restore"). */
export function planChangesFiles(plan: Plan): boolean {
  return plan.actions.some((action) => action.action !== 'none') || (plan.folders ?? []).length > 0;
}

export function PlanView({
  plan,
  conflicts,
  showMessages,
  diffTurnId = null,
  commands = [],
  onKeepBoth,
}: PlanViewProps) {
  const folderUris = new Set((plan.folders ?? []).map((folder) => folder.uri));
  const pathActions = plan.actions.filter((action) => !folderUris.has(action.uri));
  const of = (kind: PlanAction['action']) => pathActions.filter((action) => action.action === kind);
  const created = (plan.folders ?? []).filter((folder) => folder.action === 'create');
  const removed = (plan.folders ?? []).filter((folder) => folder.action === 'remove');
  const untouched = of('none').length;
  const nothingToDo = !planChangesFiles(plan);

  return (
    <div className="plan">
      {nothingToDo && <p className="notice">Every file is already as it was before: there is nothing to restore.</p>}
      <PathList
        title="Restore to their earlier content"
        items={actionItems(of('restore'), diffTurnId, (a) => displayPath(a.uri))}
      />
      <PathList
        title="Delete (did not exist before)"
        items={actionItems(of('delete'), diffTurnId, (a) => displayPath(a.uri))}
      />
      <PathList
        title="Move back"
        items={actionItems(of('move-back'), diffTurnId, (a) =>
          a.from ? `${displayPath(a.from)} → ${displayPath(a.uri)}` : displayPath(a.uri),
        )}
      />
      <PathList title="Folders created" items={created.map((folder) => `${displayPath(folder.uri)}/`)} />
      <PathList
        title="Folders removed"
        note="A folder is removed only when nothing else is left in it."
        items={removed.map(
          (folder) =>
            `${displayPath(folder.uri)}/${folder.implied ? ' (the turn created it for the chosen files)' : ''}`,
        )}
      />
      {untouched > 0 && <p className="muted">{plural(untouched, 'path')} already in place.</p>}
      <PathList
        title="Keep both"
        note="Each stays as it is now; the version the undo restores is written beside it, and a redo removes that copy."
        items={of('keep-both').map((a) => `${displayPath(a.uri)} — restored version to ${displayPath(a.copy ?? '')}`)}
      />
      <PathList
        title="Changed since the turn (conflicts)"
        items={conflictItems(conflicts, plan.actions, onKeepBoth)}
        tone="warn"
      />
      <PathList
        title="Cannot be restored"
        items={plan.unrestorable.map(
          (item) => `${displayPath(item.uri)} — ${RESTORE_ERROR_TEXT[item.code] ?? item.code} (${item.code})`,
        )}
        tone="danger"
      />
      {(plan.linked ?? []).map((linked) => (
        // The same prompt's turn in another project goes back with this one (Turn.linked).
        <PathList
          key={`${linked.workspaceId}:${linked.turnId}`}
          title={`Also in ${linked.root.split('/').filter(Boolean).pop() ?? linked.root} (its linked turn, undone with it)`}
          items={linked.plan.actions
            .filter((a) => a.action !== 'none')
            .map((a) => `${a.action} ${displayPath(a.uri)}${a.conflict ? ' (changed since the turn)' : ''}`)}
          tone={linked.plan.conflicts.length > 0 ? 'warn' : undefined}
        />
      ))}
      <CommandsNote commands={commands} />
      {showMessages && (
        <section className="plan-group plan-group--danger" aria-label="Messages to delete">
          <h3>
            Chat messages to delete <span className="pane-count">{plan.messages.length}</span>
          </h3>
          {plan.messages.length === 0 ? (
            <p className="muted">No messages.</p>
          ) : (
            <MessageList messages={plan.messages} label="Messages that will be deleted" />
          )}
        </section>
      )}
    </div>
  );
}
