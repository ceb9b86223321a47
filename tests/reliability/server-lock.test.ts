// One server per data dir: a second `turnback serve` on the same data dir is refused with one
// clear line and exit code 2; after the first is SIGKILLed its stale lock is taken over.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { exited, kill, spawnTs, waitForLine } from './child.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('server lock', tally));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function serve(sandbox: Sandbox) {
  const child = spawnTs(
    'server/cli.ts',
    ['serve', '--workspace', sandbox.workspace, '--data', sandbox.dataDir, '--port', '0'],
    { XDG_STATE_HOME: join(sandbox.base, 'state') },
  );
  cleanups.push(() => kill(child));
  return child;
}

const LISTENING = /^turnback listening on http:\/\/127\.0\.0\.1:\d+\/\?token=/;

describe('server lock', () => {
  it('a second server on the same data dir is refused; a stale lock from a killed server is recovered', async () => {
    const sandbox = await makeSandbox({ 'a.txt': 'a\n' });
    cleanups.push(() => sandbox.cleanup());
    const first = serve(sandbox);
    await waitForLine(first, LISTENING);

    const second = serve(sandbox);
    const refused = await exited(second);
    tally.cases++;
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/data dir|lock|in use|another|already/i);

    await kill(first, 'SIGKILL');
    const third = serve(sandbox);
    tally.cases++;
    expect(await waitForLine(third, LISTENING)).toMatch(LISTENING);
  }, 60_000);
});
