// The rows a turn's files show as, in the one order the list displays them and n/p, the
// arrow keys and the first diff follow: a tree, folders before files, each by name; a rename
// or move is one row (its origin's "deleted" is folded into it).
import type { FileChange } from '../../../server/protocol';
import { displayPath, plural } from '../../lib/format';
import { isDirectoryChange } from './fileChange';

/** Drops the origin of each rename or move: the row of the path it arrived at stands for both. */
function foldRenames(files: FileChange[]): FileChange[] {
  const origins = new Set(files.filter((file) => file.from).map((file) => file.from));
  return files.filter((file) => !(origins.has(file.uri) && file.after === null));
}

function segmentsOf(file: FileChange): string[] {
  return displayPath(file.uri).split('/');
}

/** Depth first: in each folder its subfolders (a folder's own change leads it), then its files. */
function compareTreeOrder(a: FileChange, b: FileChange): number {
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  const leftDir = isDirectoryChange(a);
  const rightDir = isDirectoryChange(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] === right[i]) continue;
    // Below the shared part, a segment that has more after it (or is a folder) is a folder.
    const leftFolder = i < left.length - 1 || leftDir;
    const rightFolder = i < right.length - 1 || rightDir;
    if (leftFolder !== rightFolder) return leftFolder ? -1 : 1;
    return left[i].localeCompare(right[i]);
  }
  return left.length - right.length;
}

export function displayRows(files: FileChange[]): FileChange[] {
  return foldRenames(files).sort(compareTreeOrder);
}

/** The path whose diff a turn opens on: the first displayed one with content to compare. */
export function firstToShow(rows: FileChange[]): FileChange | undefined {
  return rows.find((file) => !isDirectoryChange(file) && !file.skipped) ?? rows[0];
}

interface RowCounts {
  files: number;
  folders: number;
}

/** The numbers the console shows for a turn's rows: files (a rename counts once) and folders. */
export function countRows(rows: FileChange[]): RowCounts {
  const folders = rows.filter(isDirectoryChange).length;
  return { files: rows.length - folders, folders };
}

/** A rename or move that kept the bytes it had: nothing to diff. */
export function renameKeptContent(row: FileChange, files: FileChange[]): boolean {
  if (!row.from) return false;
  const origin = files.find((file) => file.uri === row.from)?.before;
  return (
    origin?.type === 'file' &&
    row.after?.type === 'file' &&
    origin.hash !== '' &&
    origin.hash === row.after.hash &&
    origin.mode === row.after.mode
  );
}

/** "2 of 3 selected", or "1 of 3 files · 0 of 1 folder selected": counted as the list counts its rows. */
export function formatSelectedCounts(selected: RowCounts, all: RowCounts): string {
  if (all.folders === 0) return `${selected.files} of ${all.files} selected`;
  return `${selected.files} of ${plural(all.files, 'file')} · ${selected.folders} of ${plural(all.folders, 'folder')} selected`;
}

/** "3 files · 1 folder", as the detail's header and its file list say it. */
export function formatRowCounts(counts: RowCounts): string {
  return `${plural(counts.files, 'file')}${counts.folders > 0 ? ` · ${plural(counts.folders, 'folder')}` : ''}`;
}
