// Files and folders the engine may not read (mode 000), as the unprivileged user `nobody`: where
// the engine owns one, the rollback gives its mode back first and restores it; what it cannot
// see (inside a folder no scan could list) is named in the rollback's answer, never silently.
// exec-end and the turn say the same about what was skipped, each path once.
import { afterAll, describe, expect, it } from 'vitest';
import { chownTree, nobody, runTsAs } from './as-nobody.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('unreadable files (as nobody)', tally));

const user = nobody();

interface Outcome {
  execSkipped: { uri: string; reason: string }[];
  turnSkipped: { count: number; files: { uri: string; skipped: string }[] };
  rollback: { ok: boolean; restored: string[]; errors: { uri: string; code: string }[] };
  mode: number;
  content: string;
}

async function run(which: string): Promise<Outcome> {
  const sandbox = await makeSandbox({ 'a.txt': 'original\n', 'd/f.txt': 'original\n' });
  try {
    await chownTree(sandbox.base, user!);
    tally.cases++;
    return runTsAs<Outcome>(user!, 'tests/reliability/unreadable-agent.ts', [
      which,
      sandbox.workspace,
      sandbox.dataDir,
    ]);
  } finally {
    await sandbox.cleanup();
  }
}

describe.skipIf(!user)('files and folders turnback may not read (as nobody)', () => {
  it('a file the command made 000: skipped alike by exec-end and the turn; the rollback gives its mode back first and restores it', async () => {
    const r = await run('file-000');
    expect(r.execSkipped).toEqual([{ uri: 'workspace:/a.txt', reason: 'unreadable' }]);
    expect(r.turnSkipped).toEqual({ count: 1, files: [{ uri: 'workspace:/a.txt', skipped: 'unreadable' }] });
    expect(r.rollback).toEqual({ ok: true, restored: ['workspace:/a.txt'], errors: [] });
    expect(r.mode).toBe(0o644);
    expect(r.content).toBe('original\n');
  }, 60_000);

  it('a folder the command made 000 after changing a file inside: listed once, its mode given back, and named as not restored', async () => {
    const r = await run('dir-000');
    expect(r.execSkipped).toEqual([{ uri: 'workspace:/d', reason: 'unreadable' }]);
    expect(r.rollback.ok).toBe(false);
    expect(r.rollback.errors).toEqual([{ uri: 'workspace:/d', code: 'IO' }]);
    expect(r.mode).toBe(0o755);
    // What the command wrote inside could not be seen, so it stays (and the answer says so).
    expect(r.content).toBe("the command's\n");
  }, 60_000);
});
