// Which turn wrote each line of a committed file: line origins carried along the versions
// parent -> turn1.before -> turn1.after -> ... -> committed by line diffs (docs/design.md "Provenance").
import { diffArrays } from 'diff';

export { countRanges, inRanges } from './line-ranges.js';

/** `null`: the person's; `'parent'`: already in the parent commit (its own note tells). */
export type LineOrigin = string | null;

export interface TurnVersions {
  turnId: string;
  /** The path's text before and after the turn (null: absent or not text). */
  before: string | null;
  after: string | null;
}

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Carries `origins` (one per line of `from`) onto `to`; a line new in `to` gets `fresh`. */
function carry(from: string[], origins: LineOrigin[], to: string[], fresh: LineOrigin): LineOrigin[] {
  const out: LineOrigin[] = [];
  let at = 0;
  for (const part of diffArrays(from, to)) {
    const count = part.value.length;
    if (part.removed) at += count;
    else if (part.added) for (let i = 0; i < count; i++) out.push(fresh);
    else for (let i = 0; i < count; i++) out.push(at < origins.length ? origins[at++] : fresh);
  }
  return out;
}

/**
 * One origin per line of `committed`: the turn that last wrote it, the person, or the parent.
 * `added` (1-based) is git's own say of which lines the commit added, as `git blame` sees them. A
 * line it leaves as its parent had it is the parent's whatever the walk says: a turn already in
 * the parent (its end and the parent's commit in one second) claims none of it again. Where git
 * and the walk's line diff pair repeated lines (`}`, `"dev": true,`) differently, a turn's claim
 * moves to the line of the same text that git calls new.
 */
export function lineOrigins(
  parent: string | null,
  turns: TurnVersions[],
  committed: string,
  added: ReadonlySet<number>,
): LineOrigin[] {
  const committedLines = splitLines(committed);
  const walked = walk(splitLines(parent ?? ''), turns, committedLines);
  const moved = new Map<string, LineOrigin[]>();
  for (let i = 0; i < walked.length; i++) {
    if (added.has(i + 1)) continue;
    if (walked[i] !== null && walked[i] !== 'parent') {
      const text = committedLines[i]!;
      const claims = moved.get(text);
      if (claims) claims.push(walked[i]);
      else moved.set(text, [walked[i]]);
    }
    walked[i] = 'parent';
  }
  for (let i = 0; i < walked.length; i++)
    if (added.has(i + 1) && walked[i] === 'parent') walked[i] = moved.get(committedLines[i]!)?.shift() ?? null;
  return walked;
}

function walk(parentLines: string[], turns: TurnVersions[], committedLines: string[]): LineOrigin[] {
  let lines = parentLines;
  let origins: LineOrigin[] = lines.map(() => 'parent');
  for (const turn of turns) {
    if (turn.before !== null) {
      const before = splitLines(turn.before);
      origins = carry(lines, origins, before, null);
      lines = before;
    }
    const after = splitLines(turn.after ?? '');
    origins = carry(lines, origins, after, turn.turnId);
    lines = after;
  }
  return carry(lines, origins, committedLines, null);
}

/** `1-3,7`: the 1-based line numbers where `origins` names `turnId`. */
export function rangesOf(origins: LineOrigin[], turnId: string): string {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i <= origins.length; i++) {
    const mine = i < origins.length && origins[i] === turnId;
    if (mine && start < 0) start = i;
    if (!mine && start >= 0) {
      parts.push(start === i - 1 ? `${start + 1}` : `${start + 1}-${i}`);
      start = -1;
    }
  }
  return parts.join(',');
}
