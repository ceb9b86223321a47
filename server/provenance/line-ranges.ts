// A note's line ranges (`1-3,7`, 1-based): read without the diff machinery, so blame and explain load light.

/** `1-3,7` as [first, last] pairs, in the order written. */
export function parseRanges(ranges: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const part of ranges.split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-').map(Number);
    spans.push([a, b ?? a]);
  }
  return spans;
}

/** Whether 1-based `line` is in `ranges` (`1-3,7`). */
export function inRanges(ranges: string, line: number): boolean {
  return inSpans(parseRanges(ranges), line);
}

/** Whether 1-based `line` is in `spans` (from `parseRanges`). */
export function inSpans(spans: [number, number][], line: number): boolean {
  for (const [a, b] of spans) if (line >= a && line <= b) return true;
  return false;
}

/** How many lines `ranges` covers. */
export function countRanges(ranges: string): number {
  let count = 0;
  for (const [a, b] of parseRanges(ranges)) count += b - a + 1;
  return count;
}
