// Side-by-side (or unified) diff of one path: before the turn → after it. Sides that have
// no text (absent, binary, too large) get a placeholder that says why; images show as
// images; a large diff waits for a click; a rename that kept its content says so.
import { useState } from 'react';
import type { FileChange, Side, State } from '../../../server/protocol';
import { useCompareDiff, useTurnDiff } from '../../api/hooks';
import { useIsDark } from '../../app/useTheme';
import { displayPath, formatBytes } from '../../lib/format';
import { useUiStore } from '../../store';
import { DiffModeToggle } from './DiffModeToggle';
import { ImageDiff, isImageDiff } from './ImageDiff';
import { LazyTextDiff, WarmTextDiff } from './LazyTextDiff';
import { LARGE_DIFF_LINES, lineCount } from './largeDiff';
import { languageOf } from './language';
import { useDiffMode } from './useDiffMode';

/**
 * Diffs up to this many lines render whole. The viewer's virtual rows are sized from an estimate
 * of unwrapped lines, so a short wrapped diff would sit clipped in a box that scrolls on its own
 * while the pane below it stays empty; only long diffs need rows rendered on demand.
 */
const VIRTUAL_FROM_LINES = 400;

/** Two points compared (docs/api.md "compare"): the diff's sides are the ends of `from` and `to`. */
export interface ComparePoints {
  from: string;
  to: string;
  fromLabel: string;
  toLabel: string;
}

export function sidePlaceholder(side: Side, which: 'before' | 'after', compare?: ComparePoints): string | null {
  if (!side.exists && compare) return `Does not exist at ${which === 'before' ? compare.fromLabel : compare.toLabel}`;
  if (!side.exists) return which === 'before' ? 'Did not exist before the turn' : 'Does not exist after the turn';
  if (side.tooLarge) return `Too large to keep (${formatBytes(side.size)})`;
  if (side.binary) return `Binary file (${formatBytes(side.size)})`;
  if (side.text === null) return 'No text content';
  return null;
}

function SideNote({
  side,
  which,
  turnNumber,
  compare,
}: {
  side: Side;
  which: 'before' | 'after';
  turnNumber: number;
  compare?: ComparePoints;
}) {
  const text = sidePlaceholder(side, which, compare);
  const point = compare ? (which === 'before' ? compare.fromLabel : compare.toLabel) : null;
  return (
    <div
      className={`side-note${text === null ? ' side-note--text' : side.exists ? '' : ' side-note--absent'}`}
      aria-label={point !== null ? `At ${point}` : `${which === 'before' ? 'Before' : 'After'} turn #${turnNumber}`}
    >
      <span className="side-note__label">
        {point !== null ? `At ${point}` : `${which === 'before' ? 'Before' : 'After'} #${turnNumber}`}
      </span>
      <span>{text ?? formatBytes(side.size)}</span>
      {side.truncated && <span className="badge badge--warn">truncated to 1 MiB</span>}
    </div>
  );
}

function WrapToggle() {
  const wrap = useUiStore((state) => state.wrapLines);
  const setWrap = useUiStore((state) => state.setWrapLines);
  return (
    <button type="button" className="btn btn--small" aria-pressed={wrap} onClick={() => setWrap(!wrap)}>
      Wrap lines
    </button>
  );
}

interface DiffPanelProps {
  turnId: string;
  file: FileChange;
  turnNumber: number;
  /** A rename or move whose content is byte for byte what it was. */
  contentUnchanged?: boolean;
  /** Show the path between two points instead of across the turn. */
  compare?: ComparePoints;
}

export function DiffPanel({ turnId, file, turnNumber, contentUnchanged = false, compare }: DiffPanelProps) {
  const diffMode = useDiffMode();
  const wrap = useUiStore((state) => state.wrapLines);
  const dark = useIsDark();
  const uri = file.uri;
  const structural = structuralChange(file, compare);
  const fetchDiff = structural === null && !contentUnchanged;
  const turnDiff = useTurnDiff(turnId, uri, fetchDiff && !compare);
  const compareDiff = useCompareDiff(compare?.from ?? '', compare?.to ?? '', uri, fetchDiff && compare !== undefined);
  const { data, isPending, isError, error } = compare ? compareDiff : turnDiff;
  const [openLarge, setOpenLarge] = useState(false);
  const path = displayPath(uri);
  const fromNote = file.from ? <span className="diff-panel__from"> (from {displayPath(file.from)})</span> : null;
  const unchangedNote = `${file.change === 'moved' ? 'Moved' : 'Renamed'} from ${displayPath(file.from ?? '')}, content unchanged.`;

  if (!fetchDiff)
    return (
      <section className="diff-panel" aria-label={`Diff of ${path}`}>
        <header className="diff-panel__head">
          <h3 className="diff-panel__path" title={uri}>
            {path}
            {fromNote}
          </h3>
        </header>
        <p className="pane-empty">{structural ?? unchangedNote}</p>
      </section>
    );

  const lines = data ? Math.max(lineCount(data.before.text), lineCount(data.after.text)) : 0;
  const folded = lines > LARGE_DIFF_LINES && !openLarge;

  return (
    <section className="diff-panel" aria-label={`Diff of ${path}`}>
      <header className="diff-panel__head">
        <h3 className="diff-panel__path" title={uri}>
          {path}
          {fromNote}
        </h3>
        <div className="diff-panel__tools">
          <WrapToggle />
          <DiffModeToggle />
        </div>
      </header>
      {isPending ? (
        <p className="pane-empty" role="status">
          Loading diff…
        </p>
      ) : isError ? (
        <p className="pane-empty pane-empty--error" role="alert">
          Could not load the diff: {error.message}
        </p>
      ) : (
        <>
          <div className="side-notes">
            <SideNote side={data.before} which="before" turnNumber={turnNumber} compare={compare} />
            <SideNote side={data.after} which="after" turnNumber={turnNumber} compare={compare} />
          </div>
          {isImageDiff(data.before, data.after, uri) ? (
            <ImageDiff
              before={data.before}
              after={data.after}
              uri={uri}
              beforeLabel={compare ? `At ${compare.fromLabel}` : `Before #${turnNumber}`}
              afterLabel={compare ? `At ${compare.toLabel}` : `After #${turnNumber}`}
            />
          ) : !bothSidesRenderable(data.before, data.after) ? (
            <p className="pane-empty">No text diff to show for this path.</p>
          ) : file.from && data.before.text === data.after.text ? (
            <p className="pane-empty">{unchangedNote}</p>
          ) : folded ? (
            <div className="diff-folded">
              <p>
                This diff is large: {lines.toLocaleString('en-US')} lines. It stays folded until you open it, and shows
                without syntax colours.
              </p>
              <button type="button" className="btn" onClick={() => setOpenLarge(true)}>
                Show the diff
              </button>
              <WarmTextDiff split={diffMode === 'split'} wrap={wrap} dark={dark} />
            </div>
          ) : (
            <div className="diff-body">
              <LazyTextDiff
                oldValue={data.before.text ?? ''}
                newValue={data.after.text ?? ''}
                split={diffMode === 'split'}
                wrap={wrap}
                dark={dark}
                // Colouring a whole large file costs seconds of main thread: large diffs stay plain.
                language={lines > LARGE_DIFF_LINES ? undefined : languageOf(uri)}
                virtual={lines > VIRTUAL_FROM_LINES}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

const SPECIAL_NAMES = {
  fifo: 'a FIFO',
  socket: 'a socket',
  char: 'a character device',
  block: 'a block device',
} as const;

function describeState(state: State): string {
  if (state === null) return 'absent';
  if (state.type === 'dir') return `a directory (mode ${(state.mode & 0o7777).toString(8)})`;
  if (state.type === 'symlink') return `a symlink to ${state.target}`;
  if (state.type === 'special')
    return `a special file (${SPECIAL_NAMES[state.kind]}, mode ${(state.mode & 0o7777).toString(8)})`;
  return `a file (mode ${(state.mode & 0o7777).toString(8)})`;
}

/** Directories, symlinks and mode-only changes have no text to compare: say what changed instead. */
function structuralChange(file: FileChange, compare?: ComparePoints): string | null {
  const kinds = [file.before?.type, file.after?.type];
  if (
    !kinds.includes('dir') &&
    !kinds.includes('symlink') &&
    !kinds.includes('special') &&
    file.change !== 'mode-changed'
  )
    return null;
  if (compare)
    return `At ${compare.fromLabel}: ${describeState(file.before)}. At ${compare.toLabel}: ${describeState(file.after)}.`;
  return `Before the turn: ${describeState(file.before)}. After it: ${describeState(file.after)}.`;
}

/** A text side, or an absent one (shown as empty): then a line diff says something true. */
export function bothSidesRenderable(before: Side, after: Side): boolean {
  const ok = (side: Side) => !side.exists || (side.text !== null && !side.binary && !side.tooLarge);
  return ok(before) && ok(after) && (before.text !== null || after.text !== null);
}
