// Crash sweep: the engine is stopped dead before the N-th filesystem operation of a capture,
// a commit, a rollback, a rollback with chat and a GC sweep, for every N (a sample in the
// quick run). After each stop the store must reopen, list, hold every workspace path wholly
// old or wholly new, have no temp files, and roll the turn back to its exact start tree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL, inPool, POOL, sampleOf } from './mode.testutil.js';
import { scenarios, watchedScenarios } from './scenarios.testutil.js';
import { crashAt, profile } from './sweep.testutil.js';
import { killBetweenEvents, multiCommandTurn } from './event-cut.testutil.js';
import { useWatcher } from './open-engine.testutil.js';
import { splitKnown } from './known-defects.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('crash sweep', tally));

function crashSweep(title: string, list: typeof scenarios): void {
  describe(title, () => {
    for (const scenario of list) {
      it(
        `${scenario.name}: every cut point leaves a store that reopens and rolls back exactly`,
        async () => {
          const { total, after, ops } = await profile(scenario);
          if (scenario.filesystem === 'none') {
            expect(total).toBe(0);
            tally.notes.push(`${scenario.name}: no filesystem operation (one SQLite transaction)`);
            return;
          }
          expect(total).toBeGreaterThan(0);
          const points = sampleOf(
            Array.from({ length: total }, (_, i) => i + 1),
            3,
          );
          const found = await inPool(points, POOL, (at) => crashAt(scenario, at, after, ops));
          const { known, unexplained } = splitKnown(found.flat());
          tally.cases += points.length;
          tally.crashPoints += points.length;
          tally.failures += found.filter((f) => f.length > 0).length;
          tally.notes.push(`${scenario.name}: ${points.length} of ${total} points` + knownNote(known));
          expect(unexplained).toEqual([]);
        },
        FULL ? 600_000 : 60_000,
      );
    }
  });
}

crashSweep('crash sweep', scenarios);
// The watcher path: the same sweep over the scenarios that scan, with the service's watcher on.
describe('with the watcher', () => {
  beforeAll(() => useWatcher(true));
  afterAll(() => useWatcher(false));
  crashSweep('crash sweep with the watcher', watchedScenarios);
});

describe('a service killed between two events of a multi-command turn', () => {
  // Each cut point names itself and what went wrong: a kill after event k, then the undo or a rewind.
  it(
    'after a kill between any two events the turn goes on, and its undo and a rewind restore the start tree',
    async () => {
      const cuts = multiCommandTurn('/w')
        .slice(0, -1)
        .flatMap((_, cut) =>
          (['at once', 'at the next event'] as const).flatMap((restart) =>
            (['rollback', 'rewind'] as const).map((undo) => ({ cut, undo, restart })),
          ),
        );
      const found = await inPool(cuts, POOL, ({ cut, undo, restart }) => killBetweenEvents(cut, undo, restart));
      tally.cases += cuts.length;
      tally.crashPoints += cuts.length;
      tally.failures += found.filter((f) => f.length > 0).length;
      tally.notes.push(
        `a kill between two events of a 9-event turn: ${cuts.length} points (8 cuts × started again at once or at the next event × undo, rewind)`,
      );
      expect(found.flat()).toEqual([]);
    },
    FULL ? 600_000 : 120_000,
  );
});

describe('crash while a write is in flight', () => {
  // A workspace write creates its temp file beside the file; a stop before the rename must not
  // leave that temp file in the person's workspace once the store is reopened.
  it(
    'no temp file is left in the workspace by a write cut before its rename',
    async () => {
      const capture = scenarios.find((s) => s.name === 'capture')!;
      const { ops, after } = await profile(capture);
      const opened = ops.findIndex((o) => o.op === 'open' && o.path.includes('/workspace/'));
      const renamed = ops.findIndex((o, i) => i > opened && o.op === 'rename' && o.path === ops[opened].path);
      expect(opened).toBeGreaterThanOrEqual(0);
      expect(renamed).toBeGreaterThan(opened);
      // Cutting before op k (1-based) leaves ops 1..k-1 done: the temp exists from k = opened + 2.
      const points = sampleOf(
        Array.from({ length: renamed - opened }, (_, i) => opened + 2 + i),
        3,
      );
      const found = await inPool(points, POOL, (at) => crashAt(capture, at, after));
      tally.cases += points.length;
      tally.crashPoints += points.length;
      tally.failures += found.filter((f) => f.length > 0).length;
      expect(found.flat()).toEqual([]);
    },
    FULL ? 600_000 : 60_000,
  );
});

describe('crash while an undo re-creates directories', () => {
  // Undoing a rollback re-creates the directories the rollback removed; cut right after one is
  // made, running the undo again must finish the job (the directory is the engine's own work,
  // not something planted), with the directory's original mode.
  it('an undo of a rollback cut after re-creating its directories completes when run again', async () => {
    const undo = scenarios.find((s) => s.name === 'undo of a rollback')!;
    const { ops, after } = await profile(undo);
    // Cut just before the first file is written back: the directories exist, their modes not yet set.
    const made = ops.findIndex((o) => o.op === 'mkdir' && o.path.includes('/workspace/'));
    const firstWrite = ops.findIndex((o) => o.op === 'open' && o.path.includes('/workspace/'));
    expect(made).toBeGreaterThanOrEqual(0);
    expect(firstWrite).toBeGreaterThan(made);
    const found = await crashAt(undo, firstWrite + 1, after);
    tally.cases++;
    tally.crashPoints++;
    if (found.length) tally.failures++;
    expect(found).toEqual([]);
  }, 60_000);
});

function knownNote(known: Map<string, number>): string {
  return known.size ? ` (known defects: ${[...known].map(([id, n]) => `${id} ×${n}`).join(', ')})` : '';
}
