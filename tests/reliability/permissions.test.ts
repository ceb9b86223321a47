// Real permission errors, as the unprivileged user `nobody` (root would ignore them). Skipped
// where the machine has no such user, no way to switch to it, or a checkout it cannot read
// (one cloned under a private folder, such as one made by mktemp -d).
import { afterAll, describe, expect, it } from 'vitest';
import { chownTree, nobody, runTsAs } from './as-nobody.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('permissions (as nobody)', tally));

const user = nobody();

async function runAsNobody(which: string): Promise<{
  errorCode: string | null;
  skipped: unknown[];
  rollback: { ok: boolean; errors: string[] };
  content: string;
}> {
  const sandbox = await makeSandbox({ 'a.txt': 'original\n' });
  try {
    await chownTree(sandbox.base, user!);
    const result = runTsAs<{
      errorCode: string | null;
      skipped: unknown[];
      rollback: { ok: boolean; errors: string[] };
      content: string;
    }>(user!, 'tests/reliability/permission-agent.ts', [which, sandbox.workspace, sandbox.dataDir]);
    tally.cases++;
    tally.faults++;
    return result;
  } finally {
    await sandbox.cleanup();
  }
}

describe.skipIf(!user)('real permission errors (as nobody)', () => {
  it('a write while the store folder is read-only keeps the original in the store database, and rolls back exactly', async () => {
    const r = await runAsNobody('store-readonly');
    expect(r.errorCode).toBeNull();
    expect(r.rollback).toEqual({ ok: true, errors: [] });
    expect(r.content).toBe('original\n');
  }, 60_000);

  it('overwriting an unreadable file is recorded as skipped and reported by rollback, never silently', async () => {
    const r = await runAsNobody('file-unreadable');
    expect(r.errorCode).toBeNull();
    expect(r.skipped).toEqual([{ uri: 'workspace:/a.txt', skipped: 'unreadable' }]);
    expect(r.rollback).toEqual({ ok: false, errors: ['IO'] });
  }, 60_000);
});
