// The paths a turn changed. Each row: a checkbox for selective restore, the path (selects
// its diff), the kind of change and +/- lines. Arrow keys or j/k move between rows.
import { useRef, type KeyboardEvent } from 'react';
import type { FileChange } from '../../../server/protocol';
import { displayPath, formatBytes } from '../../lib/format';
import { SKIP_HELP, SKIP_REASONS, changeLabel, fromText, restoreSize } from './fileChange';

export interface FileListProps {
  files: FileChange[];
  selectedUri: string | null;
  checked: string[];
  onSelect: (uri: string, viaKeyboard: boolean) => void;
  onToggle: (uri: string) => void;
  onSetChecked: (uris: string[]) => void;
}

export function FileList({ files, selectedUri, checked, onSelect, onToggle, onSetChecked }: FileListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const checkedSet = new Set(checked);
  const selectable = files.filter((file) => !file.skipped);
  const checkedFiles = files.filter((file) => checkedSet.has(file.uri));
  const totalSize = checkedFiles.reduce((sum, file) => sum + restoreSize(file), 0);
  const allChecked = selectable.length > 0 && selectable.every((file) => checkedSet.has(file.uri));

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
    const current = files.findIndex((file) => file.uri === selectedUri);
    const next = Math.max(0, Math.min(files.length - 1, current + (down ? 1 : -1)));
    onSelect(files[next].uri, true);
    listRef.current?.querySelectorAll<HTMLButtonElement>('.file-row__path')[next]?.focus();
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
              ? `${checkedFiles.length} of ${files.length} selected · ${formatBytes(totalSize)}`
              : `${files.length} ${files.length === 1 ? 'path' : 'paths'}`}
          </span>
        </label>
      </div>
      <ul ref={listRef} id="changed-files" className="file-rows" aria-label="Changed files" onKeyDown={onKeyDown}>
        {files.map((file) => {
          const path = displayPath(file.uri);
          const selected = file.uri === selectedUri;
          const from = fromText(file);
          return (
            <li key={file.uri} className={`file-row${selected ? ' is-selected' : ''}${file.skipped ? ' is-skipped' : ''}`}>
              <input
                type="checkbox"
                checked={checkedSet.has(file.uri)}
                disabled={Boolean(file.skipped)}
                onChange={() => onToggle(file.uri)}
                aria-label={`Select ${path} for restore`}
              />
              <button
                type="button"
                className="file-row__path"
                aria-current={selected ? 'true' : undefined}
                aria-label={`Show diff of ${path}`}
                onClick={() => onSelect(file.uri, false)}
              >
                <span className="file-row__name">{path}</span>
                {from && <span className="file-row__from">{from}</span>}
              </button>
              <span className={`change change--${file.change}`}>{changeLabel(file)}</span>
              {file.skipped ? (
                <span className="file-row__skip" title={SKIP_HELP[file.skipped]}>
                  skipped: {SKIP_REASONS[file.skipped]}
                </span>
              ) : (
                <span className="file-row__lines" aria-label={file.lines ? `${file.lines.added} lines added, ${file.lines.removed} removed` : undefined}>
                  {file.lines && (
                    <>
                      <span className="plus">+{file.lines.added}</span> <span className="minus">−{file.lines.removed}</span>
                    </>
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
