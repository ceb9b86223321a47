// Real permission errors, as the unprivileged user `nobody` (root would ignore them). Skipped
// where the machine has no such user, no way to switch to it, or a checkout it cannot read
// (one cloned under a private folder, such as one made by mktemp -d).
import { execFileSync, spawnSync } from 'node:child_process';
import { chown, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './child.testutil.js';
import { makeSandbox } from './sandbox.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('permissions (as nobody)', tally));

function nobody(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim());
    const canRunHere = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', process.execPath, '--import', 'tsx', '-e', ''],
      { cwd: REPO_ROOT, timeout: 60_000 }).status === 0;
    return canRunHere ? { uid, gid } : null;
  } catch {
    return null;
  }
}

const user = nobody();

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await chown(dir, uid, gid);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await chownTree(join(dir, e.name), uid, gid);
    else await chown(join(dir, e.name), uid, gid);
  }
}

async function runAsNobody(which: string): Promise<{ errorCode: string | null; skipped: unknown[]; rollback: { ok: boolean; errors: string[] }; content: string }> {
  const sandbox = await makeSandbox({ 'a.txt': 'original\n' });
  try {
    await chownTree(sandbox.base, user!.uid, user!.gid);
    const out = spawnSync('setpriv', [`--reuid=${user!.uid}`, `--regid=${user!.gid}`, '--clear-groups', process.execPath, '--import', 'tsx',
      'server/reliability/permission-agent.ts', which, sandbox.workspace, sandbox.dataDir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    if (out.status !== 0) throw new Error(`permission agent failed: ${out.stderr}`);
    tally.cases++;
    tally.faults++;
    return JSON.parse(out.stdout.trim().split('\n').at(-1)!);
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
