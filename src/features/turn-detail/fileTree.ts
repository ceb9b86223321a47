// The rows of a turn's file tree: folder rows (a folder's own change, when it has one) and file
// rows, indented, in the order they come (callers pass displayRows' tree order).
import type { FileChange } from '../../../server/protocol';
import { displayPath } from '../../lib/format';
import { isDirectoryChange } from './fileChange';

export type TreeRow =
  | { kind: 'folder'; path: string; depth: number; name: string; change?: FileChange; files: number }
  | { kind: 'file'; path: string; depth: number; name: string; change: FileChange; folders: string[] };

export function treeRows(files: FileChange[]): TreeRow[] {
  const rows: TreeRow[] = [];
  const counts = new Map<string, number>();
  const headers: Extract<TreeRow, { kind: 'folder' }>[] = [];
  let stack: string[] = [];
  for (const change of files) {
    const segments = displayPath(change.uri).split('/');
    const isFolder = isDirectoryChange(change);
    const folderSegments = isFolder ? segments : segments.slice(0, -1);
    let shared = 0;
    while (shared < stack.length && shared < folderSegments.length && stack[shared] === folderSegments[shared])
      shared++;
    // A folder's own change leads its rows: a header already shown for it takes the change.
    const reused =
      isFolder && shared === folderSegments.length
        ? headers.find((h) => h.path === folderSegments.join('/'))
        : undefined;
    if (reused) {
      reused.change ??= change;
      continue;
    }
    stack = stack.slice(0, shared);
    for (let depth = shared; depth < folderSegments.length; depth++) {
      stack.push(folderSegments[depth]);
      const path = stack.join('/');
      const own = isFolder && depth === folderSegments.length - 1 ? change : undefined;
      const header = { kind: 'folder' as const, path, depth, name: folderSegments[depth], change: own, files: 0 };
      headers.push(header);
      rows.push(header);
    }
    if (isFolder) continue;
    const folders = folderSegments.map((_, i) => folderSegments.slice(0, i + 1).join('/'));
    for (const folder of folders) counts.set(folder, (counts.get(folder) ?? 0) + 1);
    rows.push({
      kind: 'file',
      path: segments.join('/'),
      depth: folderSegments.length,
      name: segments[segments.length - 1],
      change,
      folders,
    });
  }
  for (const header of headers) header.files = counts.get(header.path) ?? 0;
  return rows;
}
