// A rollback's files go in batches bounded in bytes (their contents are held in memory) and in
// files replaced by rename (each needs room for a temp copy and a handle on its folder); a file
// written over in place needs neither, so it does not count toward the files.
import { describe, expect, it } from 'vitest';
import type { EvaluatedPath } from './plan.js';
import { batches } from './place-contents.js';

const file = (i: number, size = 10): EvaluatedPath =>
  ({
    uri: `workspace:/f${i}`,
    target: { type: 'file', hash: 'a'.repeat(64), size, mode: 0o644 },
    status: 'action',
    current: null,
  }) as unknown as EvaluatedPath;

const sizes = (out: EvaluatedPath[][]) => out.map((b) => b.length);

describe('batches of a rollback', () => {
  const paths = Array.from({ length: 1200 }, (_, i) => file(i));

  it('holds at most 512 files replaced by rename', () => {
    expect(sizes(batches(paths, 1 << 30))).toEqual([512, 512, 176]);
  });

  it('counts no file written over in place toward that bound', () => {
    expect(sizes(batches(paths, 1 << 30, () => true))).toEqual([1200]);
    // Every other one in place: the 513th file replaced by rename (path 1,025) opens a new batch.
    expect(sizes(batches(paths, 1 << 30, (p) => Number(p.uri.slice(12)) % 2 === 0))).toEqual([1025, 175]);
  });

  it('holds about maxBytes of content, written in place or not', () => {
    expect(sizes(batches(paths, 1000, () => true))).toEqual(Array(12).fill(100));
  });
});
