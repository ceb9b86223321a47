// The paths a turn changed, as a collapsible tree in the order given (the display order).
// Each file row: a checkbox for selective restore, the name (selects its diff), the kind of
// change and +/- lines. Arrow keys or j/k move between rows; a folder row folds its rows.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { FileChange } from '../../../server/protocol';
import { displayPath, formatBytes, plural } from '../../lib/format';
import { SKIP_HELP, SKIP_REASONS, changeLabel, fromText, restoreSize } from './fileChange';
import { LineDelta } from '../timeline/LineDelta';
import { countRows, formatRowCounts, formatSelectedCounts } from './fileRows';
import { treeRows, type TreeRow } from './fileTree';

export interface FileListProps {
  files: FileChange[];
  selectedUri: string | null;
  checked: string[];
  onSelect: (uri: string, viaKeyboard: boolean) => void;
  onToggle: (uri: string) => void;
  onSetChecked: (uris: string[]) => void;
}

function Lines({ file }: { file: FileChange }) {
  // A move or a mode change that kept every line has no line count worth a "+0 −0".
  const sameLines = file.change === 'renamed' || file.change === 'moved' || file.change === 'mode-changed';
  if (sameLines && file.lines?.added === 0 && file.lines.removed === 0) return <span />;
  if (file.skipped)
    return (
      <span className="file-row__skip" title={SKIP_HELP[file.skipped]}>
        skipped: {SKIP_REASONS[file.skipped]}
      </span>
    );
  return file.lines ? (
    <LineDelta added={file.lines.added} removed={file.lines.removed} />
  ) : (
    <span className="file-row__lines" />
  );
}

export function FileList({ files, selectedUri, checked, onSelect, onToggle, onSetChecked }: FileListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const checkedSet = new Set(checked);
  const selectable = files.filter((file) => !file.skipped);
  const checkedFiles = files.filter((file) => checkedSet.has(file.uri));
  const totalSize = checkedFiles.reduce((sum, file) => sum + restoreSize(file), 0);
  const allChecked = selectable.length > 0 && selectable.every((file) => checkedSet.has(file.uri));
  const rows = useMemo(() => treeRows(files), [files]);
  // A file chosen elsewhere (n/p, a link) opens the folders it is in: a choice is never hidden.
  const [shownFor, setShownFor] = useState(selectedUri);
  if (shownFor !== selectedUri) {
    setShownFor(selectedUri);
    const row = rows.find((item) => item.change?.uri === selectedUri);
    if (row?.kind === 'file' && row.folders.some((folder) => collapsed.has(folder))) {
      setCollapsed(new Set([...collapsed].filter((folder) => !row.folders.includes(folder))));
    }
  }
  const isHidden = (row: TreeRow) =>
    row.path
      .split('/')
      .slice(0, row.depth)
      .some((_, i, all) => collapsed.has(all.slice(0, i + 1).join('/')));
  const visible = rows.filter((row) => !isHidden(row));
  const steps = visible.filter((row) => row.change).map((row) => row.change!.uri);
  const counts = countRows(files);

  const toggleFolder = (path: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft' || event.key === 'h') {
      event.preventDefault();
      document.getElementById('turn-timeline')?.focus();
      return;
    }
    const down = event.key === 'ArrowDown' || event.key === 'j';
    const up = event.key === 'ArrowUp' || event.key === 'k';
    if (!down && !up) return;
    event.preventDefault();
    event.stopPropagation();
    const current = steps.indexOf(selectedUri ?? '');
    const next = steps[Math.max(0, Math.min(steps.length - 1, current + (down ? 1 : -1)))];
    onSelect(next, true);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-uri="${CSS.escape(next)}"]`)?.focus();
  };

  if (files.length === 0) return <p className="pane-empty">This turn changed no files.</p>;

  return (
    <div className="file-list">
      <div className="file-list__toolbar">
        <label className="checkbox-label">
          <input
            type="checkbox"
            checked={allChecked}
            ref={(input) => {
              if (input) input.indeterminate = checkedFiles.length > 0 && !allChecked;
            }}
            onChange={() => onSetChecked(allChecked ? [] : selectable.map((file) => file.uri))}
            aria-label="Select all files for restore"
          />
          <span>
            {checkedFiles.length > 0
              ? `${formatSelectedCounts(countRows(checkedFiles), counts)} · ${formatBytes(totalSize)}`
              : formatRowCounts(counts)}
          </span>
        </label>
      </div>
      <ul ref={listRef} id="changed-files" className="file-rows" aria-label="Changed files" onKeyDown={onKeyDown}>
        {visible.map((row) => {
          const file = row.change;
          const indent = { paddingLeft: `${14 + row.depth * 16}px` };
          if (row.kind === 'folder') {
            const open = !collapsed.has(row.path);
            return (
              <li
                key={`folder:${row.path}`}
                className={`file-row file-row--folder${file?.uri === selectedUri ? ' is-selected' : ''}`}
                style={indent}
              >
                {file ? (
                  <input
                    type="checkbox"
                    checked={checkedSet.has(file.uri)}
                    disabled={Boolean(file.skipped)}
                    onChange={() => onToggle(file.uri)}
                    aria-label={`Select ${row.path} for restore`}
                  />
                ) : (
                  <span />
                )}
                <button
                  type="button"
                  className="file-row__folder"
                  aria-expanded={open}
                  data-uri={file?.uri}
                  onClick={() => toggleFolder(row.path)}
                >
                  <span aria-hidden="true" className="file-row__chevron">
                    {open ? '▾' : '▸'}
                  </span>{' '}
                  {row.name}/<span className="file-row__count"> {plural(row.files, 'file')}</span>
                </button>
                {file ? <span className={`change change--${file.change}`}>{changeLabel(file)}</span> : <span />}
                <span />
              </li>
            );
          }
          const path = displayPath(row.change.uri);
          const selected = row.change.uri === selectedUri;
          const from = fromText(row.change);
          return (
            <li
              key={row.change.uri}
              className={`file-row${selected ? ' is-selected' : ''}${row.change.skipped ? ' is-skipped' : ''}`}
              style={indent}
            >
              <input
                type="checkbox"
                checked={checkedSet.has(row.change.uri)}
                disabled={Boolean(row.change.skipped)}
                onChange={() => onToggle(row.change.uri)}
                aria-label={`Select ${path} for restore`}
              />
              <button
                type="button"
                className="file-row__path"
                aria-current={selected ? 'true' : undefined}
                aria-label={`Show diff of ${path}`}
                data-uri={row.change.uri}
                title={path}
                onClick={() => onSelect(row.change.uri, false)}
              >
                <span className="file-row__name">{row.name}</span>
                {from && <span className="file-row__from">{from}</span>}
              </button>
              <span className={`change change--${row.change.change}`}>{changeLabel(row.change)}</span>
              <Lines file={row.change} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
