// `diff <a>..<b>`: each path whose state differs between the end of point a and the end of
// point b (GET …/compare), as a unified diff from the two sides of GET …/compare/diff.
import type { Comparison, FileChange } from '../../protocol.js';
import type { FileDiff } from './operations.js';
import { locatePoint } from './point-ref.js';
import type { Located } from './turn-ref.js';
import { unifiedDiff } from './unified-diff.js';
import type { WorkspaceClient } from './workspace.js';

export interface Compared {
  from: Located;
  to: Located;
  comparison: Comparison;
  diffs: FileDiff[];
}

/** `a..b` split in two; a range with either end empty is not one. */
export function splitRange(range: string): [string, string] | undefined {
  const at = range.indexOf('..');
  if (at <= 0 || at + 2 >= range.length) return undefined;
  return [range.slice(0, at), range.slice(at + 2)];
}

export async function comparePoints(
  ws: WorkspaceClient,
  fromRef: string,
  toRef: string,
  uris: string[],
  sessionFlag: string | undefined,
  name: (uri: string) => string,
): Promise<Compared> {
  const from = await locatePoint(ws, fromRef, sessionFlag);
  const to = await locatePoint(ws, toRef, sessionFlag);
  const comparison = await ws.compare(from.turn.turnId, to.turn.turnId);
  const chosen =
    uris.length === 0
      ? comparison.files
      : comparison.files.filter((file) => uris.some((uri) => file.uri === uri || file.uri.startsWith(`${uri}/`)));
  const diffs: FileDiff[] = [];
  for (const file of chosen) {
    if (file.change === 'dir-created' || file.change === 'dir-deleted') continue;
    const diff = await ws.compareDiff(from.turn.turnId, to.turn.turnId, file.uri);
    // The comparison's two states carry the modes the patch's header names, as a turn's change does.
    const change = { uri: file.uri, change: file.change, before: file.before, after: file.after } as FileChange;
    diffs.push({ diff, change, patch: unifiedDiff(diff, change, name) });
  }
  return { from, to, comparison, diffs };
}
