// Crash sweep: the engine is stopped dead before the N-th filesystem operation of a capture,
// a commit, a rollback, a rollback with chat and a GC sweep, for every N (a sample in the
// quick run). After each stop the store must reopen, list, hold every workspace path wholly
// old or wholly new, have no temp files, and roll the turn back to its exact start tree.
import { afterAll, describe, expect, it } from 'vitest';
import { FULL, inPool, POOL, sampleOf } from './mode.testutil.js';
import { scenarios } from './scenarios.testutil.js';
import { crashAt, profile } from './sweep.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('crash sweep', tally));

describe('crash sweep', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: every cut point leaves a store that reopens and rolls back exactly`, async () => {
      const { total, after } = await profile(scenario);
      expect(total).toBeGreaterThan(0);
      const points = sampleOf(Array.from({ length: total }, (_, i) => i + 1), 4);
      const found = await inPool(points, POOL, (at) => crashAt(scenario, at, after));
      const problems = found.flat();
      tally.cases += points.length;
      tally.crashPoints += points.length;
      tally.failures += found.filter((f) => f.length > 0).length;
      tally.notes.push(`${scenario.name}: ${points.length} of ${total} points`);
      expect(problems).toEqual([]);
    }, FULL ? 600_000 : 60_000);
  }
});
