// How long a delta chain may grow. A read decodes every level of its chain, so the bound is on
// the bytes a read decodes (per part: a part decodes the same part of each base), with a
// depth cap for the per-level cost of many small ones. At the bound, the new delta goes
// against an ancestor halfway up the chain instead: a delta over a few versions costs a
// little more than one over the last, and far less than a whole keyframe.
// Measured on the commander.js history (bench item 10), with a 4 MiB bound: depth ≤ 16 keeps
// 454 KB of contents, ≤ 24 421 KB, ≤ 50 377 KB (no bound, ≤ 32: 406 KB, but a 250 KB
// package-lock.json 32 levels down decodes 7.7 MiB, 17 ms). A level costs about 0.1 ms for a
// 50 KB file (zstd with a fresh dictionary each level), so at 16 a read of a usual source file
// decodes in 2 ms or less and none decodes more than 4 MiB (under 10 ms).
import { type ContentParts, type StoredContent, PART_SIZE } from './content-parts.js';

/** Deltas between any content and a whole one, at most. */
export const DELTA_DEPTH = 16;
/** Bytes a read of one part may decode along its chain. */
export const DECODE_BUDGET = 4 << 20;
/** Large contents still get this many levels (a read then decodes at most this many times their size). */
const MIN_DEPTH = 4;

interface Chain {
  depth: number;
  decoded: number;
}

/** Bytes of one part a read decodes for each content of a chain: the content itself, then its bases. */
const partBytes = (row: StoredContent) => Math.min(row.size, PART_SIZE);

function chainOf(parts: ContentParts, row: StoredContent): { rows: StoredContent[]; decoded: number[] } {
  const rows: StoredContent[] = [];
  for (
    let at: StoredContent | undefined = row;
    at && rows.length <= DELTA_DEPTH;
    at = at.baseId === null ? undefined : parts.byId(at.baseId)
  )
    rows.push(at);
  // decoded[i]: what reading rows[i] decodes (itself and everything below it).
  const decoded = new Array<number>(rows.length);
  for (let i = rows.length - 1, sum = 0; i >= 0; i--) decoded[i] = sum += partBytes(rows[i]);
  return { rows, decoded };
}

/** The most a content of this size may decode per part along its chain. */
function budgetFor(row: StoredContent): number {
  return Math.max(DECODE_BUDGET, MIN_DEPTH * partBytes(row));
}

/**
 * The base `row` may be a delta of, given the nearest version `candidate`: the candidate while
 * its chain leaves room, else its ancestor halfway to the bound; null when none does.
 */
export function baseWithin(parts: ContentParts, row: StoredContent, candidate: StoredContent): StoredContent | null {
  const budget = budgetFor(row);
  const fits = (chain: Chain, share: number) =>
    chain.depth + 1 <= DELTA_DEPTH * share && chain.decoded + partBytes(row) <= budget * share;
  const { rows, decoded } = chainOf(parts, candidate);
  const at = (i: number): Chain => ({ depth: rows[i].depth, decoded: decoded[i] });
  if (fits(at(0), 1)) return candidate;
  for (let i = 1; i < rows.length; i++) if (fits(at(i), 0.5)) return rows[i];
  return null;
}
