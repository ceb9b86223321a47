// The selected turn: header, actions, its files / chat / commands, and the diff of one file.
import { useEffect } from 'react';
import { useTurnManifest, useTurnSteps } from '../../api/hooks';
import { useSelection } from '../../app/useSelection';
import { formatClock } from '../../lib/format';
import { useUiStore, type DetailTab } from '../../store';
import { ActionBar } from '../actions/ActionBar';
import { DiffPanel } from '../diff/DiffPanel';
import { LineDelta } from '../timeline/LineDelta';
import { TurnBadges } from '../timeline/TurnBadges';
import { turnTitle, type TurnOf } from '../timeline/turnNames';
import { ChatMessages } from './ChatMessages';
import { ExecCommands } from './ExecCommands';
import { FileList } from './FileList';
import { LiveEntries } from './LiveEntries';
import { StepsList } from './StepsList';
import { LinkedTurns } from './LinkedTurns';
import { TurnRelations } from './TurnRelations';
import { countRows, formatRowCounts, renameKeptContent } from './fileRows';
import { useOutage } from '../live/useOutage';

export function TurnDetailPane() {
  const {
    sessionId,
    turnId,
    fileUri,
    checked: checkedFiles,
    rows: files,
    session,
    turns: sessionTurns,
  } = useSelection();
  const detailTab = useUiStore((state) => state.detailTab);
  const { selectFile, selectTurn, toggleChecked, setChecked, setDetailTab } = useUiStore.getState();
  const manifest = useTurnManifest(turnId);
  const offline = useOutage();
  const steps = useTurnSteps(turnId ?? '', turnId !== null && manifest.isSuccess);

  // The tab title tells which turn a console window shows when it sits beside the agent.
  const titleTurn = manifest.data?.turn;
  const tabTitle = titleTurn
    ? `#${titleTurn.number} ${turnTitle(titleTurn, (id) => sessionTurns.find((item) => item.turnId === id))} · turnback`
    : 'turnback';
  useEffect(() => {
    document.title = tabTitle;
  }, [tabTitle]);

  if (!turnId)
    return (
      <section className="detail" aria-label="Turn detail">
        <p className="pane-empty">Select a turn.</p>
      </section>
    );
  if (manifest.isPending)
    return (
      <section className="detail" aria-label="Turn detail">
        <p className="pane-empty" role="status">
          Loading turn…
        </p>
      </section>
    );
  if (manifest.isError && !manifest.data)
    return (
      <section className="detail" aria-label="Turn detail">
        <p className="pane-empty pane-empty--error" role="alert">
          Could not load this turn: {manifest.error.message}
        </p>
      </section>
    );

  const { turn } = manifest.data;
  const counts = countRows(files);
  // A running turn has no per-file summary yet, only the operations recorded so far.
  const showLive = turn.status === 'active' && files.length === 0;
  const tabs: { id: DetailTab; label: string }[] = [
    {
      id: 'files',
      label: `Files (${showLive ? new Set(manifest.data.entries.map((entry) => entry.uri)).size : counts.files})`,
    },
    { id: 'chat', label: `Chat (${turn.messageCount})` },
    // The Steps tab: each tool call and shell command, with what it changed.
    { id: 'commands', label: `Steps (${steps.data?.length ?? '…'})` },
  ];
  const sessionBusy = Boolean(session?.activeTurnId) || turn.status === 'active';
  const blockedReason = offline
    ? 'The server is not answering; undo and redo wait until it is back.'
    : sessionBusy
      ? 'An agent turn is in progress in this session; undo and redo wait until it ends.'
      : undefined;
  const turnOf: TurnOf = (id) => (id === turn.turnId ? turn : sessionTurns.find((item) => item.turnId === id));
  const selectedFile = files.find((file) => file.uri === fileUri);

  return (
    <section className="detail" aria-label="Turn detail">
      <header className="detail__head">
        <div className="detail__title">
          <span className="detail__number">#{turn.number}</span>
          <h2>{turnTitle(turn, turnOf)}</h2>
        </div>
        <div className="detail__meta">
          <time dateTime={turn.startedAt}>{formatClock(turn.startedAt)}</time>
          {turn.endedAt ? <span>ended {formatClock(turn.endedAt)}</span> : <span>in progress</span>}
          <span>{formatRowCounts(counts)}</span>
          {(turn.lines.added > 0 || turn.lines.removed > 0) && (
            <LineDelta added={turn.lines.added} removed={turn.lines.removed} />
          )}
          {turn.skippedCount > 0 && <span>{turn.skippedCount} skipped</span>}
          <TurnBadges turn={turn} turnOf={turnOf} />
          <TurnRelations turn={turn} turnOf={turnOf} onOpen={(id) => selectTurn(id)} />
          <LinkedTurns turn={turn} />
        </div>
        {turn.kind === 'pin' && (
          <p className="notice pin-note">
            A named point: the workspace as it was at {formatClock(turn.startedAt)}. Rewinding to it takes back every
            turn begun since, in any session.
          </p>
        )}
        <ActionBar
          turn={turn}
          platform={session?.platform ?? ''}
          checkedFiles={checkedFiles}
          sessionBusy={sessionBusy}
          offline={offline}
          turnOf={turnOf}
        />
      </header>
      <div className="tabs" role="tablist" aria-label="Turn contents">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={detailTab === tab.id}
            aria-controls={`tabpanel-${tab.id}`}
            className="tab"
            onClick={() => setDetailTab(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        className={`detail__upper${detailTab === 'commands' ? ' detail__upper--steps' : ''}`}
        role="tabpanel"
        id={`tabpanel-${detailTab}`}
        aria-labelledby={`tab-${detailTab}`}
      >
        {detailTab === 'files' && showLive && <LiveEntries entries={manifest.data.entries} />}
        {detailTab === 'files' && !showLive && (
          <FileList
            files={files}
            selectedUri={fileUri}
            checked={checkedFiles}
            onSelect={(uri, viaKeyboard) => selectFile(uri, viaKeyboard ? 'replace' : 'push')}
            onToggle={(uri) => toggleChecked(turn.turnId, uri)}
            onSetChecked={(uris) => setChecked(turn.turnId, uris)}
          />
        )}
        {detailTab === 'chat' && sessionId && (
          <ChatMessages sessionId={sessionId} turnId={turn.turnId} live={turn.status === 'active'} />
        )}
        {detailTab === 'commands' && (
          <>
            <StepsList turn={turn} platform={session?.platform ?? ''} blockedReason={blockedReason} offline={offline} />
            {turn.execCommands.length > 0 && <h3 className="steps__heading">Shell commands</h3>}
            {turn.execCommands.length > 0 && (
              <ExecCommands turnId={turn.turnId} commands={turn.execCommands} captured={turn.execCaptured} />
            )}
          </>
        )}
      </div>
      {selectedFile ? (
        <DiffPanel
          key={`${turn.turnId}:${selectedFile.uri}`}
          turnId={turn.turnId}
          file={selectedFile}
          turnNumber={turn.number}
          contentUnchanged={renameKeptContent(selectedFile, manifest.data.files)}
        />
      ) : (
        <p className="pane-empty">{files.length > 0 ? 'Select a file to see its diff.' : ''}</p>
      )}
    </section>
  );
}
