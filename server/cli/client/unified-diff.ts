// A turn's change to one file as a unified diff, from the service's two sides (GET …/diff).
// jsdiff makes the hunks; this adds git's headers (created, deleted, renamed, mode) and colour.
import { createTwoFilesPatch } from 'diff';
import type { Diff, FileChange, Side } from '../../protocol.js';
import type { Paint } from './io.js';

const CONTEXT_LINES = 3;
/**
 * Myers' diff costs O(N·D): two unrelated 5,000-line files take jsdiff about 7 s (measured). Past
 * this bound the change is shown as one hunk replacing every line, which is still a correct patch.
 */
export const DIFF_TIMEOUT_MS = 1_500;

function linesOf(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === '') return { lines: [], finalNewline: true };
  const lines = text.split('\n');
  const finalNewline = text.endsWith('\n');
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

/** Every old line removed and every new one added, in jsdiff's notation (counts always written). */
export function wholeFileHunk(oldText: string, newText: string): string[] {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  const side = (sign: string, { lines, finalNewline }: { lines: string[]; finalNewline: boolean }) => [
    ...lines.map((line) => sign + line),
    ...(finalNewline || lines.length === 0 ? [] : ['\\ No newline at end of file']),
  ];
  const start = (count: number) => (count === 0 ? 0 : 1);
  return [
    `@@ -${start(before.lines.length)},${before.lines.length} +${start(after.lines.length)},${after.lines.length} @@`,
    ...side('-', before),
    ...side('+', after),
  ];
}

function unshowable(side: Side): string | undefined {
  if (!side.exists) return undefined;
  if (side.tooLarge) return 'too large to show';
  if (side.binary || side.text === null) return 'binary';
  if (side.truncated) return 'cut at 1 MiB';
  return undefined;
}

/** git's mode for a symlink. */
const SYMLINK_MODE = 0o120000;
const modeOf = (state: FileChange['before']) =>
  state?.type === 'symlink' ? SYMLINK_MODE : state ? state.mode : undefined;

/** A symlink's side is its target, as git shows it (a text without a final newline). */
function withLinkTarget(side: Side, state: FileChange['before']): Side {
  if (state?.type !== 'symlink') return side;
  return { ...side, exists: true, binary: false, tooLarge: false, truncated: false, text: state.target };
}

/** The patch text (no colour): `diff --turnback a/… b/…`, then mode, rename and hunk lines. */
export function unifiedDiff(
  given: Diff,
  change: FileChange | undefined,
  name: (uri: string) => string,
  timeoutMs = DIFF_TIMEOUT_MS,
): string {
  const diff: Diff = {
    ...given,
    before: withLinkTarget(given.before, change?.before ?? null),
    after: withLinkTarget(given.after, change?.after ?? null),
  };
  const oldName = name(diff.from ?? diff.uri);
  const newName = name(diff.uri);
  const header = [`diff --turnback a/${oldName} b/${newName}`];
  const oldMode = modeOf(change?.before ?? null);
  const newMode = modeOf(change?.after ?? null);
  if (!diff.before.exists && newMode !== undefined) header.push(`new file mode ${newMode.toString(8)}`);
  else if (!diff.after.exists && oldMode !== undefined) header.push(`deleted file mode ${oldMode.toString(8)}`);
  else if (oldMode !== undefined && newMode !== undefined && oldMode !== newMode)
    header.push(`old mode ${oldMode.toString(8)}`, `new mode ${newMode.toString(8)}`);
  if (diff.from !== undefined) header.push(`rename from ${oldName}`, `rename to ${newName}`);
  const reason = unshowable(diff.before) ?? unshowable(diff.after);
  if (reason === 'binary' || reason === 'too large to show') {
    header.push(
      `Binary files ${diff.before.exists ? `a/${oldName}` : '/dev/null'} and ${diff.after.exists ? `b/${newName}` : '/dev/null'} differ (${reason})`,
    );
    return `${header.join('\n')}\n`;
  }
  const oldLabel = diff.before.exists ? `a/${oldName}` : '/dev/null';
  const newLabel = diff.after.exists ? `b/${newName}` : '/dev/null';
  const oldText = diff.before.text ?? '';
  const newText = diff.after.text ?? '';
  const patch = createTwoFilesPatch(oldLabel, newLabel, oldText, newText, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: timeoutMs,
  });
  // jsdiff starts with a '=' rule line; git's form does not, and without hunks the names add nothing.
  const body =
    patch === undefined
      ? [`--- ${oldLabel}`, `+++ ${newLabel}`, ...wholeFileHunk(oldText, newText)]
      : patch.split('\n').slice(1);
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
