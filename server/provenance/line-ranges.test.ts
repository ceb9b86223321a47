import { describe, expect, it } from 'vitest';
import { countRanges, inRanges, inSpans, parseRanges } from './line-ranges.js';

describe('line ranges of a note', () => {
  it('parses once and answers as the string form does', () => {
    const ranges = '1-3,7,,10-12';
    expect(parseRanges(ranges)).toEqual([
      [1, 3],
      [7, 7],
      [10, 12],
    ]);
    for (let line = 0; line <= 13; line++)
      expect(inSpans(parseRanges(ranges), line)).toBe([1, 2, 3, 7, 10, 11, 12].includes(line));
    expect(inRanges(ranges, 7)).toBe(true);
    expect(inRanges('', 1)).toBe(false);
    expect(countRanges(ranges)).toBe(7);
  });
});
