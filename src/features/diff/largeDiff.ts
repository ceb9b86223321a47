// When a diff is large: it stays folded until asked for, and shows without syntax colours.

/** Diffs with more lines than this on either side stay folded until asked for. */
export const LARGE_DIFF_LINES = 1500;

/** The lines of a side's text (0 for none), counted without splitting it. */
export function lineCount(text: string | null): number {
  if (!text) return 0;
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
