// A byte- and mode-exact snapshot of a directory tree, to compare before and after a rollback.
import { treeAsText } from '../../testkit/tree.js';

export function snapshotTree(root: string): Promise<Record<string, string>> {
  return treeAsText(root);
}
