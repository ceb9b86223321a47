// Paths summed up by the folder they sit in, most first: a command's thousands of paths read as
// a few lines with counts instead of a wall of text.
import { displayPath } from '../../lib/format';

/** Above this many paths a list is summed up by folder (the CLI uses the same bound). */
export const FOLDER_SUMMARY_THRESHOLD = 50;

export interface FolderCount {
  /** `src/gen/`, or `./` for the workspace's top level. */
  folder: string;
  count: number;
}

export function folderCounts(uris: string[]): FolderCount[] {
  const counts = new Map<string, number>();
  for (const uri of uris) {
    const path = displayPath(uri);
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? './' : path.slice(0, slash + 1);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([folder, count]) => ({ folder, count }))
    .sort((a, b) => b.count - a.count || a.folder.localeCompare(b.folder));
}
