import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compresses, deltasAvailable } from './codecs.js';

const text = (bytes: number) =>
  Buffer.from(
    Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => `export const value${i} = compute(${i});\n`).join(''),
  ).subarray(0, bytes);

describe.runIf(deltasAvailable)('compresses: a sample says whether encoding a part pays', () => {
  it('random bytes (build output, media) do not; source text does', () => {
    expect(compresses(randomBytes(10_000))).toBe(false);
    expect(compresses(randomBytes(1 << 20))).toBe(false);
    expect(compresses(text(10_000))).toBe(true);
    expect(compresses(text(1 << 20))).toBe(true);
  });

  it('a large part is sampled along its length, not only at its head', () => {
    // Text behind a random head of 100 KiB: three of the four slices compress.
    const part = Buffer.concat([randomBytes(100 * 1024), text((1 << 20) - 100 * 1024)]);
    expect(compresses(part)).toBe(true);
  });

  it('an empty part is left to the encoder', () => {
    expect(compresses(Buffer.alloc(0))).toBe(true);
  });
});
