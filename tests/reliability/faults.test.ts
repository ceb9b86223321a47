// Fault injection: ENOSPC, EACCES, EIO and EMFILE at each filesystem step of every scenario,
// EPERM at each rename. The caller gets an error with a code (or a result whose errors carry
// one), no path is left half-way, and the same store then rolls the turn back exactly.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultController } from './fault-controller.testutil.js';
import { FULL, inPool, POOL, sampleOf } from './mode.testutil.js';
import { openTestEngine, useWatcher } from './open-engine.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { scenarios, watchedScenarios, SESSION, START_FILES } from './scenarios.testutil.js';
import { faultAt, profile } from './sweep.testutil.js';
import { splitKnown } from './known-defects.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('fault injection', tally));

const ANY_STEP_CODES = ['ENOSPC', 'EACCES', 'EIO', 'EMFILE'];
const isRename = (op: { op: string }) => /rename/i.test(op.op);

function faultSweep(title: string, list: typeof scenarios): void {
  describe(title, () => {
    for (const scenario of list) {
      it(
        `${scenario.name}: each injected fault is reported with a code and loses nothing`,
        async () => {
          const { total, ops, after } = await profile(scenario);
          if (scenario.filesystem === 'none') {
            expect(total).toBe(0);
            return;
          }
          const renames = ops.filter(isRename).length;
          const cases: { at: number; code: string; only?: typeof isRename }[] = [];
          // Full: every code at every step. Quick: a spread of steps, the codes taking turns.
          sampleOf(
            Array.from({ length: total }, (_, i) => i + 1),
            4,
          ).forEach((at, i) => {
            for (const code of FULL ? ANY_STEP_CODES : [ANY_STEP_CODES[i % ANY_STEP_CODES.length]])
              cases.push({ at, code });
          });
          for (const at of sampleOf(
            Array.from({ length: renames }, (_, i) => i + 1),
            1,
          ))
            cases.push({ at, code: 'EPERM', only: isRename });
          const outcomes = await inPool(cases, POOL, (c) => faultAt(scenario, c.at, c.code, after, c.only));
          const { known, unexplained: problems } = splitKnown(outcomes.flatMap((o) => o.problems));
          const missed = outcomes.filter((o) => !o.injected).length;
          tally.cases += cases.length;
          tally.faults += cases.length - missed;
          tally.failures += outcomes.filter((o) => o.problems.length > 0).length;
          tally.notes.push(
            `${scenario.name}: ${cases.length} faults over ${total} steps (${renames} renames)` +
              (known.size ? ` (known defects: ${[...known].map(([id, n]) => `${id} ×${n}`).join(', ')})` : ''),
          );
          expect(missed).toBe(0);
          expect(problems).toEqual([]);
        },
        FULL ? 900_000 : 60_000,
      );
    }
  });
}

faultSweep('fault injection', scenarios);
// The watcher path: the same sweep over the scenarios that scan, with the service's watcher on.
describe('with the watcher', () => {
  beforeAll(() => useWatcher(true));
  afterAll(() => useWatcher(false));
  faultSweep('fault injection with the watcher', watchedScenarios);
});

// A capture that fails for any reason but the file's own permissions stops the mutation, and is
// never recorded as `skipped`.
describe('faults in the capture', () => {
  async function engineWithController() {
    const sandbox = await makeSandbox(START_FILES);
    const controller = new FaultController();
    controller.pause();
    const engine = await openTestEngine(sandbox, { controller });
    const { turnId } = await engine.input({
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: 'edit',
    });
    return { sandbox, controller, engine, turnId: turnId! };
  }

  it('a write whose before-state cannot be read fails with the code and leaves the original', async () => {
    const { sandbox, controller, engine } = await engineWithController();
    try {
      controller.faultAt(1, 'EIO', (op) => op.op === 'readFile' && op.path.endsWith('a.txt'));
      const write = engine.storage.writeFile('workspace:/a.txt', 'new content\n', { sessionId: SESSION });
      await expect(write).rejects.toMatchObject({ code: 'EIO' });
      controller.pause();
      expect(await readFile(join(sandbox.workspace, 'a.txt'), 'utf8')).toBe(START_FILES['a.txt']);
    } finally {
      await engine.close();
      await sandbox.cleanup();
    }
  });
});
