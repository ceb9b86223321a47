// A hostile workspace: FIFOs, a socket and (as root) a device put in place of files, a file and
// a folder made 000, and a file a second process keeps growing past maxFileSize, against the
// scans, captures, fs calls and rollbacks, round after round. Run as `nobody` where possible (so
// 000 means something), in a child under a deadline: 0 hangs (every call answers within its
// bound), RSS and store bytes within the limits plus a stated slack, and every path's report
// consistent (exec-end, the turn, its files, the rollback's answer).
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chownTree, nobody } from './as-nobody.testutil.js';
import { exited, kill, REPO_ROOT } from './child.testutil.js';
import { quickOrFull } from './mode.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('hostile workspace', tally));

const RUN_MS = quickOrFull(4_000, 60_000);
const MAX_FILE_SIZE = 4 << 20;
/**
 * One call's bound. A call here takes milliseconds; one that blocks on a special file blocks for
 * good (a FIFO opened for reading waits for a writer that never comes), so the bound only has to
 * stand far above what a shared machine's stall stretches a call to: a CI run saw one call take
 * 30 s while a property test in another worker ran 15 times its usual time.
 */
const CALL_MS = 60_000;
const DEADLINE_MS = RUN_MS + 2 * CALL_MS;
/** Node and SQLite at rest, plus the limit's worth of file bytes in flight several times over. */
const RSS_LIMIT = 400 << 20;
/** Slack for the small files' first states, over what their rounds keep (grow.bin is counted apart). */
const STORE_SLACK = 4 << 20;
/**
 * What each call's round legitimately keeps (every captured state of its small files, their
 * records): the store grows with the rounds, by tens of KiB a call, never by a growing file's
 * megabytes (growing.test.ts pins that a file past the limit is not stored at all).
 */
const STORE_PER_CALL = 16 << 10;

interface Outcome {
  calls: number;
  slowestMs: number;
  slowestCall: string;
  peakRss: number;
  storeBytes: number;
  growerBytes: number;
  growerLargest: number;
  problems: string[];
  codes: Record<string, number>;
  totalMs: number;
}

/**
 * Appends to grow.bin without end, 256 KiB every 20 ms, starting over past 16 MiB: past the
 * limit three quarters of the time; below it, in 16 sizes, or any size when a read races an append
 * (so the agent reports grow.bin's kept bytes apart from the rest).
 * The disk is never filled, nor its queue swamped for the other suites running beside this one.
 */
function startGrower(workspace: string): ChildProcess {
  const file = join(workspace, 'grow.bin');
  return spawn(
    'sh',
    [
      '-c',
      `while :; do head -c 262144 /dev/zero >> "$1"; [ "$(stat -c %s "$1")" -gt 16777216 ] && : > "$1"; sleep 0.02; done`,
      'grower',
      file,
    ],
    { stdio: 'ignore' },
  );
}

describe('a hostile workspace', () => {
  it(
    'FIFOs, sockets, devices, growing files and 000 modes: no hang, bounded memory and store, consistent reports',
    async () => {
      const sandbox = await makeSandbox({
        'reg.txt': 'a file\n',
        sock: 'a file\n',
        'locked.txt': 'locked\n',
        'closed/inner.txt': 'inner\n',
      });
      await writeFile(join(sandbox.workspace, 'grow.bin'), '');
      const user = nobody();
      if (user) await chownTree(sandbox.base, user);
      const grower = startGrower(sandbox.workspace);
      const args = [
        '--import',
        'tsx',
        'tests/reliability/hostile-workspace-agent.ts',
        sandbox.workspace,
        sandbox.dataDir,
        String(RUN_MS),
        String(MAX_FILE_SIZE),
      ];
      const child = user
        ? spawn(
            'setpriv',
            [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', process.execPath, ...args],
            { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
          )
        : spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
      try {
        const done = exited(child);
        const first = await Promise.race([
          done,
          new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), DEADLINE_MS).unref()),
        ]);
        if (first === 'hung') await kill(child);
        expect(first, 'the agent finished within its deadline').not.toBe('hung');
        if (first === 'hung') return;
        expect(first.code, first.stderr).toBe(0);
        const o = JSON.parse(out.trim().split('\n').at(-1)!) as Outcome;
        tally.cases++;
        tally.requests += o.calls;
        tally.failures += o.problems.length;
        tally.notes.push(
          `${o.calls} calls in ${o.totalMs} ms, slowest ${o.slowestMs} ms (${o.slowestCall}), peak RSS ${(o.peakRss / 2 ** 20).toFixed(0)} MiB, store ${(o.storeBytes / 2 ** 20).toFixed(1)} MiB (grow.bin ${(o.growerBytes / 2 ** 20).toFixed(1)} MiB)${user ? ' (as nobody)' : ''}`,
        );
        expect(o.problems).toEqual([]);
        expect(o.calls).toBeGreaterThan(0);
        expect(o.slowestMs, `the slowest call, ${o.slowestCall}`).toBeLessThan(CALL_MS);
        expect(o.peakRss).toBeLessThan(RSS_LIMIT);
        // grow.bin is kept only below the limit; everything else grows by the rounds' small files.
        expect(o.growerLargest).toBeLessThanOrEqual(MAX_FILE_SIZE);
        expect(o.storeBytes - o.growerBytes).toBeLessThan(STORE_SLACK + o.calls * STORE_PER_CALL);
      } finally {
        await kill(grower);
        await sandbox.cleanup();
      }
    },
    DEADLINE_MS + 30_000,
  );
});
