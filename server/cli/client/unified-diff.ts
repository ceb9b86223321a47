// A turn's change to one file as a unified diff, from the service's two sides (GET …/diff).
// jsdiff makes the hunks; this adds git's headers (created, deleted, renamed, mode) and colour.
import { createTwoFilesPatch } from 'diff';
import type { Diff, FileChange, Side } from '../../protocol.js';
import type { Paint } from './io.js';

const CONTEXT_LINES = 3;

function unshowable(side: Side): string | undefined {
  if (!side.exists) return undefined;
  if (side.tooLarge) return 'too large to show';
  if (side.binary || side.text === null) return 'binary';
  if (side.truncated) return 'cut at 1 MiB';
  return undefined;
}

const modeOf = (state: FileChange['before']) => (state && state.type !== 'symlink' ? state.mode : undefined);

/** The patch text (no colour): `diff --turnback a/… b/…`, then mode, rename and hunk lines. */
export function unifiedDiff(diff: Diff, change: FileChange | undefined, name: (uri: string) => string): string {
  const oldName = name(diff.from ?? diff.uri);
  const newName = name(diff.uri);
  const header = [`diff --turnback a/${oldName} b/${newName}`];
  const oldMode = modeOf(change?.before ?? null);
  const newMode = modeOf(change?.after ?? null);
  if (!diff.before.exists && newMode !== undefined) header.push(`new file mode ${newMode.toString(8)}`);
  else if (!diff.after.exists && oldMode !== undefined) header.push(`deleted file mode ${oldMode.toString(8)}`);
  else if (oldMode !== undefined && newMode !== undefined && oldMode !== newMode) header.push(`old mode ${oldMode.toString(8)}`, `new mode ${newMode.toString(8)}`);
  if (diff.from !== undefined) header.push(`rename from ${oldName}`, `rename to ${newName}`);
  const reason = unshowable(diff.before) ?? unshowable(diff.after);
  if (reason === 'binary' || reason === 'too large to show') {
    header.push(`Binary files ${diff.before.exists ? `a/${oldName}` : '/dev/null'} and ${diff.after.exists ? `b/${newName}` : '/dev/null'} differ (${reason})`);
    return `${header.join('\n')}\n`;
  }
  const patch = createTwoFilesPatch(
    diff.before.exists ? `a/${oldName}` : '/dev/null',
    diff.after.exists ? `b/${newName}` : '/dev/null',
    diff.before.text ?? '',
    diff.after.text ?? '',
    undefined,
    undefined,
    { context: CONTEXT_LINES },
  );
  // jsdiff starts with a '=' rule line; git's form does not, and without hunks the names add nothing.
  const body = patch.split('\n').slice(1);
  const hunks = body.findIndex((line) => line.startsWith('@@'));
  const lines = hunks < 0 ? [] : body;
  if (reason) lines.push(`\\ ${reason}`);
  return `${[...header, ...lines].join('\n').replace(/\n+$/, '')}\n`;
}

/** Colour for a terminal: headers bold, hunk lines cyan, additions green, removals red. */
export function colourDiff(patch: string, p: Paint): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('diff ') || line.startsWith('--- ') || line.startsWith('+++ ')) return p.bold(line);
      if (line.startsWith('@@')) return p.cyan(line);
      if (line.startsWith('+')) return p.green(line);
      if (line.startsWith('-')) return p.red(line);
      return line;
    })
    .join('\n');
}
