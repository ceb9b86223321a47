// One workspace in the sidebar: its name and root, how many sessions it holds, whether it
// records (and why not) and its index while it is not whole. The current one holds its session
// list below it.
import type { ReactNode } from 'react';
import type { Workspace } from '../../../server/protocol';
import { formatBytes, plural } from '../../lib/format';
import { budgetHelp, budgetText, personPrunedText } from './budgetText';
import { indexText } from './indexText';

interface WorkspaceItemProps {
  workspace: Workspace;
  current: boolean;
  onSelect: () => void;
  /** The current workspace's sessions. */
  children?: ReactNode;
}

export function notRecordingText(workspace: Workspace): string {
  return `Not recording${workspace.reason ? `: ${workspace.reason}` : ''}`;
}

export function WorkspaceItem({ workspace, current, onSelect, children }: WorkspaceItemProps) {
  const index = indexText(workspace.index);
  const personPruned = personPrunedText(workspace.budget);
  const label = [
    `Workspace ${workspace.name}`,
    workspace.root,
    plural(workspace.sessions, 'session'),
    ...(workspace.recording ? [] : [notRecordingText(workspace)]),
    ...(index ? [index] : []),
  ].join(', ');
  return (
    <li className={`workspace${current ? ' is-current' : ''}`}>
      <button
        type="button"
        className="workspace-item"
        aria-current={current ? 'true' : undefined}
        aria-label={label}
        onClick={onSelect}
      >
        <span className="workspace-item__top">
          <span className="workspace-item__name" title={workspace.name}>
            {workspace.name}
          </span>
          <span className="workspace-item__count">{plural(workspace.sessions, 'session')}</span>
        </span>
        <span className="workspace-item__root" title={workspace.root}>
          {workspace.root}
        </span>
        {!workspace.recording && (
          <span className="workspace-item__off" title={workspace.reason}>
            {notRecordingText(workspace)}
          </span>
        )}
        {index && (
          <span className="workspace-item__index" title={index}>
            {index}
            {workspace.index?.state === 'building' && (
              <progress
                className="workspace-item__progress"
                max={100}
                value={workspace.index.percent}
                aria-label={`Index of ${workspace.name}`}
              />
            )}
          </span>
        )}
        {workspace.recording && workspace.storeBytes > 0 && (
          <span className="workspace-item__meta">{formatBytes(workspace.storeBytes)} kept</span>
        )}
        {workspace.recording && workspace.budget && (
          <span className="workspace-item__meta" title={budgetHelp(workspace.budget)}>
            {budgetText(workspace.budget)}
          </span>
        )}
        {workspace.recording && personPruned && <span className="workspace-item__meta">{personPruned}</span>}
      </button>
      {children}
    </li>
  );
}
