// Property: random shell commands (and storage writes) over a small tree, across 1-3 turns, with
// the watcher on and faults injected (events dropped, handed late, named twice, the watcher
// killed mid-turn), and commands that are hard on a watcher (a folder removed and made again at
// once, the root replaced by a copy of itself, an event flood past a folder's budget or past the
// overflow count): rolling the turns back newest first restores each turn-start tree byte for
// byte and mode for mode. Whatever the watcher does, no change leaves its turn; while it drops
// and delays nothing, each command's own list of what it changed is exactly what it changed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../server/engine/index.js';
import { plant } from '../../server/testkit/engine-harness.js';
import type { Engine } from '../../server/engine/api.js';
import { applyOp, initialTreeArb, type Op, opArb } from './ops-model.testutil.js';
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

/** Commands that are hard on a watcher. */
type WatchOp = { op: 'recreate'; dir: 'd' | 'n' } | { op: 'flood'; renames: number } | { op: 'replaceRoot' };

const watchOpArb: fc.Arbitrary<WatchOp> = fc.oneof(
  fc.record({ op: fc.constant('recreate' as const), dir: fc.constantFrom('d' as const, 'n' as const) }),
  // Past one folder's event budget (1,000), or past the overflow count (half the kernel queue).
  fc.record({ op: fc.constant('flood' as const), renames: fc.constantFrom(700, 6_000) }),
  fc.record({ op: fc.constant('replaceRoot' as const) }),
);

const watchTurnsArb = fc.array(
  fc.array(fc.oneof({ arbitrary: opArb, weight: 4 }, { arbitrary: watchOpArb, weight: 1 }), {
    minLength: 1,
    maxLength: 8,
  }),
  { minLength: 1, maxLength: 3 },
);

const isWatchOp = (op: Op | WatchOp): op is WatchOp => ['recreate', 'flood', 'replaceRoot'].includes(op.op);

/** Runs `op` as one command (exec, the change, exec-end): what the command said it changed, or null when it does not apply. */
async function applyWatchOp(engine: Engine, root: string, sessionId: string, op: WatchOp): Promise<string[] | null> {
  const kind = (rel: string) => lstatSync(join(root, rel), { throwIfNoEntry: false });
  let change: () => void;
  if (op.op === 'recreate') {
    if (!kind(op.dir)?.isDirectory()) return null;
    // At once, as git does: the new folder often gets the inode number just freed.
    change = () => {
      rmSync(join(root, op.dir), { recursive: true });
      mkdirSync(join(root, op.dir));
      writeFileSync(join(root, op.dir, 'made'), 'made again\n');
    };
  } else if (op.op === 'flood') {
    if (!kind('a')?.isFile()) return null;
    change = () => {
      for (let i = 0; i < op.renames; i++)
        renameSync(join(root, i % 2 ? 'flood' : 'a'), join(root, i % 2 ? 'a' : 'flood'));
      appendFileSync(join(root, 'a'), 'flooded\n');
    };
  } else {
    change = () => {
      // A re-clone: the root replaced by a copy of itself, one file more.
      execFileSync('cp', ['-a', root, `${root}.new`]);
      rmSync(root, { recursive: true });
      renameSync(`${root}.new`, root);
      writeFileSync(join(root, 'r'), 'replaced\n');
    };
  }
  const { execId } = await engine.exec({ sessionId, tool: 'Bash', command: op.op });
  change();
  return execId ? (await engine.execEnd({ sessionId, execId })).changed : null;
}

/** The URIs whose node differs between two snapshots: what a command changed. */
function changedBetween(before: Tree, after: Tree): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths]
    .filter((rel) => JSON.stringify(before.get(rel)) !== JSON.stringify(after.get(rel)))
    .map((rel) => `workspace:/${rel}`)
    .sort();
}

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
      fc.asyncProperty(initialTreeArb, watchTurnsArb, faultsArb, async (initial, turns, f) => {
        const base = await realpath(await mkdtemp(join(tmpdir(), 'turnback-watch-property-')));
        const workspace = join(base, 'workspace');
        await mkdir(workspace);
        await plant(workspace, initial);
        const factory = faultyFactory(faultsOf(f));
        const engine = await openEngine({ workspace, dataDir: join(base, 'data'), watcher: factory.make });
        // What the last exec-end answered (applyOp's shell commands end through it).
        const ended: { changed: string[] | null } = { changed: null };
        const recorder = new Proxy(engine, {
          get(target, key) {
            if (key === 'execEnd')
              return async (input: Parameters<Engine['execEnd']>[0]) => {
                const answer = await target.execEnd(input);
                ended.changed = answer.changed;
                return answer;
              };
            const value = Reflect.get(target, key) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        });
        // Each command's own list is checked only while the watcher drops and delays nothing.
        const exact = f.dropOneIn === 0 && f.delayTakes === 0;
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
              const before = exact ? await snapshot(workspace) : null;
              ended.changed = null;
              const said = isWatchOp(op)
                ? await applyWatchOp(engine, workspace, session, op)
                : (await applyOp(recorder, workspace, session, op)) && ended.changed;
              if (before && said)
                expect([...said].sort(), `the command's own changes (${op.op})`).toEqual(
                  changedBetween(before, await snapshot(workspace)),
                );
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
