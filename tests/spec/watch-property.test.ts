// Property: random shell commands (and storage writes) over a small tree, across 1-3 turns, with
// the watcher on and faults injected (events dropped, handed late, named twice, the watcher
// killed mid-turn): rolling the turns back newest first restores each turn-start tree byte for
// byte and mode for mode. Whatever the watcher does, no change leaves its turn.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../server/engine/index.js';
import { plant } from '../../server/testkit/engine-harness.js';
import { applyOp, initialTreeArb, turnsArb } from './ops-model.testutil.js';
import { snapshotTree as snapshot, type Tree } from '../../server/testkit/tree.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { type Faults, faultyFactory } from '../../server/engine/record/watch/watch-faults.testutil.js';

const NUM_RUNS = process.env.CI ? 200 : Number(process.env.SPEC_PROPERTY_RUNS ?? 20);
// A failure prints its seed and path; WATCH_PROPERTY_SEED / WATCH_PROPERTY_PATH replay it.
const REPLAY = process.env.WATCH_PROPERTY_SEED
  ? { seed: Number(process.env.WATCH_PROPERTY_SEED), path: process.env.WATCH_PROPERTY_PATH, endOnFailure: true }
  : {};

const faultsArb = fc.record({
  /** 0: none dropped; n: one path in n. */
  dropOneIn: fc.constantFrom(0, 0, 1, 2, 3),
  salt: fc.nat(),
  delayTakes: fc.constantFrom(0, 0, 1, 2),
  duplicate: fc.boolean(),
  /** Killed after this many operations (past the end: never). */
  killAfter: fc.nat({ max: 30 }),
});

function faultsOf(f: { dropOneIn: number; salt: number; delayTakes: number; duplicate: boolean }): Faults {
  const picked = (abs: string) =>
    createHash('sha1').update(`${f.salt}:${abs}`).digest().readUInt32BE(0) % f.dropOneIn === 0;
  return {
    drop: f.dropOneIn === 0 ? undefined : (p) => picked(p.abs),
    delayTakes: f.delayTakes,
    duplicate: f.duplicate,
  };
}

describe('property: with the watcher faulty, turns still roll back exactly', () => {
  it(`restores every turn-start tree (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(initialTreeArb, turnsArb, faultsArb, async (initial, turns, f) => {
        const base = await realpath(await mkdtemp(join(tmpdir(), 'turnback-watch-property-')));
        const workspace = join(base, 'workspace');
        await mkdir(workspace);
        await plant(workspace, initial);
        const factory = faultyFactory(faultsOf(f));
        const engine = await openEngine({ workspace, dataDir: join(base, 'data'), watcher: factory.make });
        try {
          const session = 'watch-property';
          const starts: Tree[] = [];
          const turnIds: string[] = [];
          let applied = 0;
          for (const ops of turns) {
            starts.push(await snapshot(workspace));
            const { turnId } = await engine.input({
              sessionId: session,
              platform: 'webui',
              sessionType: 'chat',
              content: 't',
            });
            for (const op of ops) {
              await applyOp(engine, workspace, session, op);
              if (++applied === f.killAfter) await factory.made[0]!.kill();
            }
            await engine.turnEnd({ sessionId: session });
            turnIds.push(turnId as string);
          }
          for (let i = turnIds.length - 1; i >= 0; i--) {
            const result = await engine.rollback(turnIds[i]!);
            expect(result.errors).toEqual([]);
            assertSameTree(starts[i]!, await snapshot(workspace), `after rolling back turn ${i + 1}, its start tree`);
          }
        } finally {
          await engine.close();
          await rm(base, { recursive: true, force: true });
        }
      }),
      { numRuns: NUM_RUNS, ...REPLAY },
    );
  }, 600_000);
});
