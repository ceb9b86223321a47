// Many paths shown as their folders with counts (the first few, "Show all" for the rest), and
// every path one click away.
import { useState, type ReactNode } from 'react';
import { plural } from '../../lib/format';
import { folderCounts } from './folderCounts';

const FIRST_FOLDERS = 8;

export function FolderSummary({
  uris,
  label,
  listAll,
}: {
  uris: string[];
  /** The accessible name of the folder list. */
  label: string;
  /** What "List every path" shows. */
  listAll: () => ReactNode;
}) {
  const [allFolders, setAllFolders] = useState(false);
  const [everyPath, setEveryPath] = useState(false);
  const folders = folderCounts(uris);
  const shown = allFolders ? folders : folders.slice(0, FIRST_FOLDERS);
  return (
    <div className="folder-summary">
      <p className="folder-summary__total">
        {uris.length.toLocaleString('en-US')} {uris.length === 1 ? 'path' : 'paths'} in{' '}
        {plural(folders.length, 'folder')}
      </p>
      <ul className="folder-summary__folders" aria-label={label}>
        {shown.map(({ folder, count }) => (
          <li key={folder}>
            <code>{folder}</code> <span className="pane-count">{count.toLocaleString('en-US')}</span>
          </li>
        ))}
      </ul>
      <div className="folder-summary__more">
        {folders.length > FIRST_FOLDERS && (
          <button
            type="button"
            className="link-button link-button--text"
            aria-expanded={allFolders}
            onClick={() => setAllFolders(!allFolders)}
          >
            {allFolders ? 'Show fewer folders' : `Show all ${folders.length.toLocaleString('en-US')} folders`}
          </button>
        )}
        <button
          type="button"
          className="link-button link-button--text"
          aria-expanded={everyPath}
          onClick={() => setEveryPath(!everyPath)}
        >
          {everyPath ? 'Hide the paths' : `List every path (${uris.length.toLocaleString('en-US')})`}
        </button>
      </div>
      {everyPath && listAll()}
    </div>
  );
}
