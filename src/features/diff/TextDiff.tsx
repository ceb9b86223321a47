// The line diff itself (react-diff-viewer-continued): virtualized rows, syntax colours from
// its refractor grammars, light or dark. Loaded as its own chunk the first time a diff shows.
import { useEffect, useState } from 'react';
import DiffViewer, {
  DiffMethod,
  type HighlightTheme,
  type ReactDiffViewerStylesOverride,
} from 'react-diff-viewer-continued';

export interface TextDiffProps {
  oldValue: string;
  newValue: string;
  split: boolean;
  wrap: boolean;
  dark: boolean;
  language?: string;
  /** Render only the rows in view (the diff panel); a short diff in a dialog shows whole. */
  virtual?: boolean;
}

const LIGHT = {
  diffViewerBackground: '#ffffff',
  diffViewerColor: '#1f2328',
  addedBackground: '#e6ffec',
  addedColor: '#1f2328',
  addedGutterBackground: '#ccffd8',
  addedGutterColor: '#1f2328',
  removedBackground: '#ffebe9',
  removedColor: '#1f2328',
  removedGutterBackground: '#ffd7d5',
  removedGutterColor: '#1f2328',
  wordAddedBackground: '#abf2bc',
  wordRemovedBackground: '#ffcecb',
  gutterBackground: '#f6f8fa',
  gutterColor: '#57606a',
  emptyLineBackground: '#fafbfc',
  codeFoldBackground: '#ddf4ff',
  codeFoldGutterBackground: '#c8e6fb',
  codeFoldContentColor: '#0a3069',
};
const DARK = {
  diffViewerBackground: '#0d1117',
  diffViewerColor: '#e6edf3',
  addedBackground: '#12261e',
  addedColor: '#e6edf3',
  addedGutterBackground: '#1b4721',
  addedGutterColor: '#e6edf3',
  removedBackground: '#25171c',
  removedColor: '#e6edf3',
  removedGutterBackground: '#4c1e24',
  removedGutterColor: '#e6edf3',
  wordAddedBackground: '#1f6f3a',
  wordRemovedBackground: '#8e2d2d',
  gutterBackground: '#161b22',
  gutterColor: '#9198a1',
  emptyLineBackground: '#0d1117',
  codeFoldBackground: '#10243e',
  codeFoldGutterBackground: '#0c2d55',
  codeFoldContentColor: '#9ecbff',
};

function stylesFor(wrap: boolean): ReactDiffViewerStylesOverride {
  return {
    // The library's default min-width of 1000px overflows the detail column.
    diffContainer: { minWidth: 0, ...(wrap ? {} : { width: 'max-content', minWidth: '100%' }) },
    variables: { light: LIGHT, dark: DARK },
    contentText: {
      fontFamily: 'var(--mono)',
      fontSize: '13px',
      lineHeight: '19px',
      // Wrapped lines break between words; a word longer than the cell still breaks (the library breaks anywhere).
      ...(wrap
        ? { lineBreak: 'auto' as const, overflowWrap: 'anywhere' as const }
        : { whiteSpace: 'pre', lineBreak: 'auto' as const }),
    },
    lineContent: wrap ? {} : { overflow: 'visible' },
    gutter: { minWidth: '40px', padding: '0 8px', fontSize: '12px' },
    titleBlock: { fontSize: '12px', padding: '6px 10px', fontWeight: 600 },
  };
}

/** The library's light token colours, darkened where they fell under 4.5:1 on the change backgrounds. */
const LIGHT_TOKENS: HighlightTheme = {
  comment: '#505a64',
  prolog: '#505a64',
  doctype: '#505a64',
  cdata: '#505a64',
  property: '#0550ae',
  boolean: '#0550ae',
  number: '#0550ae',
  constant: '#0550ae',
  symbol: '#0550ae',
  builtin: '#0550ae',
  tag: '#116329',
  inserted: '#116329',
  entity: '#116329',
  deleted: '#a40e26',
  operator: '#a0111f',
  keyword: '#a0111f',
  atrule: '#a0111f',
  selector: '#6639ba',
  'attr-name': '#6639ba',
  'class-name': '#6639ba',
  function: '#6639ba',
  important: '#953800',
  variable: '#953800',
};

const WRAPPED = stylesFor(true);
const UNWRAPPED = stylesFor(false);

/** The rows paint first, plain; colours follow once the grammar is loaded and the page is idle. */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setReady(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, []);
  return ready;
}

export default function TextDiff({ oldValue, newValue, split, wrap, dark, language, virtual = true }: TextDiffProps) {
  const colour = useAfterFirstPaint();
  return (
    <DiffViewer
      oldValue={oldValue}
      newValue={newValue}
      splitView={split}
      // Whole-word marks read better in code than character runs.
      compareMethod={DiffMethod.WORDS}
      extraLinesSurroundingDiff={4}
      hideSummary
      useDarkTheme={dark}
      highlightLanguage={colour ? language : undefined}
      highlightTheme={dark ? undefined : LIGHT_TOKENS}
      disableWorker
      // Only the rows in view are in the DOM: a 3,000-line file opens as fast as a short one.
      infiniteLoading={virtual ? { pageSize: 200, containerHeight: '100%', overscan: 30 } : undefined}
      // No loading overlay: the diff computes in milliseconds, and the viewer would also raise the
      // overlay while it re-measures rows after colouring, a flash over rows already painted.
      styles={wrap ? WRAPPED : UNWRAPPED}
    />
  );
}
