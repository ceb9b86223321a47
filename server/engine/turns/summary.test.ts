import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBinary, lineDelta } from './summary.js';

/** The plain definition: both sides as whole multisets of lines. */
function naiveDelta(before: string, after: string): { added: number; removed: number } {
  const split = (t: string) => {
    const parts = t === '' ? [] : t.split('\n');
    if (parts.at(-1) === '') parts.pop();
    return parts;
  };
  const counts = new Map<string, number>();
  for (const line of split(before)) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of split(after)) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added++;
  }
  return { added, removed: [...counts.values()].reduce((a, b) => a + b, 0) };
}

describe('line counts', () => {
  it('count a small edit in the middle of a file', () => {
    const before = 'a\nb\nc\nd\ne\n';
    expect(lineDelta(Buffer.from(before), Buffer.from('a\nb\nX\nd\ne\n'))).toEqual({ added: 1, removed: 1 });
    expect(lineDelta(Buffer.from(before), Buffer.from('a\nb\nc\nc2\nd\ne\n'))).toEqual({ added: 1, removed: 0 });
    expect(lineDelta(null, Buffer.from(before))).toEqual({ added: 5, removed: 0 });
    expect(lineDelta(Buffer.from(before), null)).toEqual({ added: 0, removed: 5 });
  });

  it('agree with comparing the whole files, for any pair of texts', () => {
    // Few distinct lines and characters, so prefixes, suffixes and repeats are shared often.
    const line = fc.constantFrom('', 'a', 'ab', 'b', 'x y', '}', 'ab\r');
    const text = fc
      .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
      .map(([ls, nl]) => ls.join('\n') + (nl && ls.length ? '\n' : ''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(lineDelta(Buffer.from(before), Buffer.from(after))).toEqual(naiveDelta(before, after));
      }),
      { numRuns: 2000 },
    );
  });

  it('give none for binary content', () => {
    expect(isBinary(Buffer.from([0x61, 0, 0x62]))).toBe(true);
    expect(isBinary(Buffer.from([0xff, 0xfe, 0x41]))).toBe(true);
    expect(lineDelta(Buffer.from('text\n'), Buffer.from([0xff, 0xfe]))).toBeUndefined();
  });
});
