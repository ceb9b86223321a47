import { useStoreStats } from '../api/hooks';
import { notRecordingText } from '../features/workspaces/WorkspaceItem';
import { budgetHelp, budgetShortText, budgetText, personBudgetHelp } from '../features/workspaces/budgetText';
import { usePersonBudget } from '../features/workspaces/usePersonBudget';
import { indexText } from '../features/workspaces/indexText';
import { useCurrentWorkspace } from '../features/workspaces/useCurrentWorkspace';
import { PinButton } from '../features/pins/PinButton';
import { CommitsButton } from '../features/commits/CommitsView';
import { SettingsMenu } from './SettingsMenu';
import { formatBytes, plural } from '../lib/format';
import { useUiStore } from '../store';

const LIVE_TEXT = { live: 'Live', connecting: 'Connecting…', polling: 'Polling' } as const;
const LIVE_HELP = {
  live: 'Updates arrive from the server as the agent works',
  connecting: 'Connecting to the event stream; refreshing periodically meanwhile',
  polling: 'The event stream is unavailable; refreshing every few seconds',
} as const;

export function Header() {
  const { data: stats } = useStoreStats();
  const liveStatus = useUiStore((state) => state.liveStatus);
  const { current: workspace } = useCurrentWorkspace();
  const { data: personBudget } = usePersonBudget();
  // The card's own budget when there is one, as for the size below.
  const budget = workspace?.budget ?? stats?.budget;
  return (
    <header className="app-header">
      <div className="brand">
        <img src="/favicon.svg" alt="" width={20} height={20} />
        <span className="brand__name">turnback</span>
      </div>
      {workspace && (
        <div className="workspace-current" aria-label={`Workspace ${workspace.name}`} title={workspace.root}>
          <span className="workspace-current__name">{workspace.name}</span>
          <span className="workspace-current__root">{workspace.root}</span>
          {/* The reason can be long (a path, an errno): the sidebar and the page below carry it whole. */}
          {!workspace.recording && (
            <span className="workspace-current__off" title={notRecordingText(workspace)}>
              Not recording
            </span>
          )}
          {workspace.index?.state === 'building' && (
            <span className="workspace-current__index" title={indexText(workspace.index) ?? undefined}>
              Indexing {workspace.index.percent}%
            </span>
          )}
          {workspace.watcher?.state === 'unavailable' && (
            <span
              className="workspace-current__off"
              title={`Every command is scanned in full: ${workspace.watcher.reason ?? 'the filesystem watcher is unavailable'}`}
            >
              Full scans
            </span>
          )}
          {workspace.watcher?.state === 'degraded' && (
            <span
              className="workspace-current__off"
              title={`Part of the tree is not watched now: ${workspace.watcher.reason ?? ''}`}
            >
              Watcher degraded
            </span>
          )}
          {(workspace.watcher?.misses ?? 0) > 0 && (
            <span
              className="workspace-current__off"
              title="Changes a full scan found that the filesystem watcher did not report (each logged by the service)"
            >
              {plural(workspace.watcher!.misses!, 'watcher miss', 'watcher misses')}
            </span>
          )}
        </div>
      )}
      <div className="store-usage" aria-label="Store usage" title={stats ? `Data dir: ${stats.dataDir}` : undefined}>
        {stats && (
          <>
            <span>{plural(stats.sessions, 'session')}</span>
            <span>{plural(stats.turns, 'turn')}</span>
            <span>{plural(stats.blobs, 'file version')}</span>
            {/* The store's size on disk, the workspace card's own field: one figure for what is kept. */}
            {workspace ? (
              <span
                className="store-usage__bytes"
                title={`The store's size on disk (the kept file versions are ${formatBytes(stats.bytes)} before compression)`}
              >
                {formatBytes(workspace.storeBytes)} kept
              </span>
            ) : (
              <span className="store-usage__bytes" title="The kept file versions' size before compression">
                {formatBytes(stats.bytes)}
              </span>
            )}
            {budget && (
              <span
                className="store-usage__budget"
                title={`${budgetText(budget)}. ${budgetHelp(budget)}${personBudgetHelp(personBudget)}`}
              >
                {budgetShortText(budget)}
              </span>
            )}
          </>
        )}
      </div>
      <div className={`live-status live-status--${liveStatus}`} role="status" title={LIVE_HELP[liveStatus]}>
        <span className="live-status__dot" aria-hidden="true" />
        {LIVE_TEXT[liveStatus]}
      </div>
      <CommitsButton />
      <PinButton />
      <SettingsMenu />
    </header>
  );
}
