// A workspace tree as a comparable value: every path with its type, mode and content.
import { treeAsText } from '../../../testkit/tree.js';

export type Tree = Record<string, string>;

export function snapshotTree(root: string): Promise<Tree> {
  return treeAsText(root);
}
