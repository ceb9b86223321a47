// The FIFO racer: while turnback works, a second process swaps the workspace file `f.txt` with
// a FIFO by name (renameat2 RENAME_EXCHANGE in a tight loop), so a path an lstat just called
// a regular file is a FIFO when it is opened. An open that waits for a FIFO's writer would
// block the whole process (no request, no health check, no SIGTERM answered). Each case runs
// its calls in a child process under a deadline: every call must answer, the child must finish.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, kill, spawnTs } from './child.testutil.js';
import { quickOrFull } from './mode.testutil.js';
import { Racer } from './racer.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('FIFO races', tally));

/** How long each case makes its calls. */
const CALLS_MS = quickOrFull(3_000, 30_000);
/** Generous for two shared cores (the child starts, then its last call ends); a blocked open never answers at all. */
const DEADLINE_MS = CALLS_MS + 30_000;

interface Outcome {
  answered: number;
  codes: Record<string, number>;
  slowestMs: number;
  totalMs: number;
}

async function underFifoRace(which: string): Promise<Outcome | 'hung'> {
  const sandbox = await makeSandbox({ 'f.txt': 'a regular file\n', 'other.txt': 'stays\n' });
  const fifo = join(sandbox.outside, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const racer = await Racer.start(join(sandbox.workspace, 'f.txt'), fifo);
  try {
    racer.run();
    const child = spawnTs('tests/reliability/hostile-agent.ts', [
      which,
      sandbox.workspace,
      sandbox.dataDir,
      String(CALLS_MS),
    ]);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const done = exited(child);
    const timer = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), DEADLINE_MS).unref());
    const first = await Promise.race([done, timer]);
    if (first === 'hung') {
      await kill(child);
      return 'hung';
    }
    if (first.code !== 0) throw new Error(`the agent exited ${first.code ?? first.signal}: ${first.stderr}`);
    const outcome = JSON.parse(out.trim().split('\n').at(-1)!) as Outcome;
    tally.requests += outcome.answered;
    return outcome;
  } finally {
    await racer.stop().catch(() => {});
    await racer.close();
    tally.cases++;
    await sandbox.cleanup();
  }
}

describe('a FIFO swapped in for a file by name', () => {
  for (const which of ['read', 'exec', 'before-mutate']) {
    it(
      `${which}: every call answers within the deadline, none blocks on the FIFO`,
      async () => {
        const outcome = await underFifoRace(which);
        if (outcome === 'hung') tally.failures++;
        expect(outcome).not.toBe('hung');
        const o = outcome as Outcome;
        expect(o.answered).toBeGreaterThan(0);
        // A race is answered with a code (the file is not there as a file, or moved meanwhile), never an uncoded error.
        expect(Object.keys(o.codes).filter((c) => !['FILE_NOT_FOUND', 'BAD_URI', 'FORBIDDEN'].includes(c))).toEqual([]);
      },
      DEADLINE_MS + 30_000,
    );
  }
});
