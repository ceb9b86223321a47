// Side-by-side (or unified) diff of one path: before the turn → after it. Sides that have
// no text (absent, binary, too large) get a placeholder that says why.
import DiffViewer, { DiffMethod } from 'react-diff-viewer-continued';
import type { FileChange, Side, State } from '../../../server/protocol';
import { useTurnDiff } from '../../api/hooks';
import { displayPath, formatBytes } from '../../lib/format';
import { useDiffMode } from './useDiffMode';
import { DiffModeToggle } from './DiffModeToggle';

export function sidePlaceholder(side: Side, which: 'before' | 'after'): string | null {
  if (!side.exists) return which === 'before' ? 'Did not exist before the turn' : 'Does not exist after the turn';
  if (side.tooLarge) return `Too large to keep (${formatBytes(side.size)})`;
  if (side.binary) return `Binary file (${formatBytes(side.size)})`;
  if (side.text === null) return 'No text content';
  return null;
}

function SideNote({ side, which, turnNumber }: { side: Side; which: 'before' | 'after'; turnNumber: number }) {
  const text = sidePlaceholder(side, which);
  return (
    <div className={`side-note${text === null ? ' side-note--text' : side.exists ? '' : ' side-note--absent'}`} aria-label={`${which === 'before' ? 'Before' : 'After'} turn #${turnNumber}`}>
      <span className="side-note__label">{which === 'before' ? 'Before' : 'After'} #{turnNumber}</span>
      <span>{text ?? formatBytes(side.size)}</span>
      {side.truncated && <span className="badge badge--warn">truncated to 1 MiB</span>}
    </div>
  );
}

export function DiffPanel({ turnId, file, turnNumber }: { turnId: string; file: FileChange; turnNumber: number }) {
  const diffMode = useDiffMode();
  const uri = file.uri;
  const structural = structuralChange(file);
  const { data, isPending, isError, error } = useTurnDiff(turnId, uri, structural === null);
  const path = displayPath(uri);

  if (structural !== null)
    return (
      <section className="diff-panel" aria-label={`Diff of ${path}`}>
        <header className="diff-panel__head">
          <h3 className="diff-panel__path" title={uri}>{path}</h3>
        </header>
        <p className="pane-empty">{structural}</p>
      </section>
    );

  return (
    <section className="diff-panel" aria-label={`Diff of ${path}`}>
      <header className="diff-panel__head">
        <h3 className="diff-panel__path" title={uri}>
          {path}
          {data?.from && <span className="diff-panel__from"> (from {displayPath(data.from)})</span>}
        </h3>
        <DiffModeToggle />
      </header>
      {isPending ? (
        <p className="pane-empty" role="status">Loading diff…</p>
      ) : isError ? (
        <p className="pane-empty pane-empty--error" role="alert">Could not load the diff: {error.message}</p>
      ) : (
        <>
          <div className="side-notes">
            <SideNote side={data.before} which="before" turnNumber={turnNumber} />
            <SideNote side={data.after} which="after" turnNumber={turnNumber} />
          </div>
          {bothSidesRenderable(data.before, data.after) ? (
            <div className="diff-body">
              <DiffViewer
                oldValue={data.before.text ?? ''}
                newValue={data.after.text ?? ''}
                splitView={diffMode === 'split'}
                // Whole-word marks read better in code than character runs.
                compareMethod={DiffMethod.WORDS}
                extraLinesSurroundingDiff={4}
                hideSummary
                styles={DIFF_STYLES}
                loadingElement={() => <p className="pane-empty" role="status">Computing diff…</p>}
              />
            </div>
          ) : (
            <p className="pane-empty">No text diff to show for this path.</p>
          )}
        </>
      )}
    </section>
  );
}

function describeState(state: State): string {
  if (state === null) return 'absent';
  if (state.type === 'dir') return `a directory (mode ${(state.mode & 0o7777).toString(8)})`;
  if (state.type === 'symlink') return `a symlink to ${state.target}`;
  return `a file (mode ${(state.mode & 0o7777).toString(8)})`;
}

/** Directories, symlinks and mode-only changes have no text to compare: say what changed instead. */
function structuralChange(file: FileChange): string | null {
  const kinds = [file.before?.type, file.after?.type];
  if (!kinds.includes('dir') && !kinds.includes('symlink') && file.change !== 'mode-changed') return null;
  return `Before the turn: ${describeState(file.before)}. After it: ${describeState(file.after)}.`;
}

/** A text side, or an absent one (shown as empty): then a line diff says something true. */
function bothSidesRenderable(before: Side, after: Side): boolean {
  const ok = (side: Side) => !side.exists || (side.text !== null && !side.binary && !side.tooLarge);
  return ok(before) && ok(after) && (before.text !== null || after.text !== null);
}

const DIFF_STYLES = {
  // The library's default min-width of 1000px overflows the detail column.
  diffContainer: { minWidth: 0 },
  variables: {
    light: {
      diffViewerBackground: '#ffffff',
      addedBackground: '#e6ffec',
      addedGutterBackground: '#ccffd8',
      removedBackground: '#ffebe9',
      removedGutterBackground: '#ffd7d5',
      wordAddedBackground: '#abf2bc',
      wordRemovedBackground: '#ffb8b0',
      gutterBackground: '#f6f8fa',
      emptyLineBackground: '#fafbfc',
    },
  },
  contentText: { fontFamily: 'var(--mono)', fontSize: '12px', lineHeight: '18px' },
  gutter: { minWidth: '36px', padding: '0 8px', fontSize: '12px' },
  titleBlock: { fontSize: '12px', padding: '6px 10px', fontWeight: 600 },
};
