// Running a script as the unprivileged user `nobody` (root ignores permission bits). Unavailable
// where the machine has no such user, no way to switch to it, or a checkout it cannot read (one
// cloned under a private folder, such as one made by mktemp -d).
import { execFileSync, spawnSync } from 'node:child_process';
import { chown, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './child.testutil.js';

export interface User {
  uid: number;
  gid: number;
}

export function nobody(): User | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim());
    const canRunHere =
      spawnSync(
        'setpriv',
        [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', process.execPath, '--import', 'tsx', '-e', ''],
        { cwd: REPO_ROOT, timeout: 60_000 },
      ).status === 0;
    return canRunHere ? { uid, gid } : null;
  } catch {
    return null;
  }
}

export async function chownTree(dir: string, user: User): Promise<void> {
  await chown(dir, user.uid, user.gid);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await chownTree(join(dir, e.name), user);
    else await chown(join(dir, e.name), user.uid, user.gid);
  }
}

/** Runs a TypeScript script as `user`; answers its last stdout line, parsed. */
export function runTsAs<T>(user: User, script: string, args: string[]): T {
  const out = spawnSync(
    'setpriv',
    [
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      process.execPath,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  if (out.status !== 0) throw new Error(`${script} failed (${out.status ?? out.signal}): ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as T;
}
