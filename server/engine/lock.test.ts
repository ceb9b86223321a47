import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError } from './errors.js';
import { EngineFs } from './paths/fs.js';
import { acquireLock } from './lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('data dir lock', () => {
  it('is held by one owner at a time and free again once released', async () => {
    const fs = new EngineFs();
    const lock = await acquireLock(fs, dir, dir);
    await expect(acquireLock(fs, dir, dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
    const again = await acquireLock(fs, dir, dir);
    await again.release();
  });

  it('takes over a stale lock left by a process that no longer exists', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    await writeFile(path.join(dir, 'lock'), JSON.stringify({ pid: deadPid }));
    const lock = await acquireLock(new EngineFs(), dir, dir);
    expect(JSON.parse(await readFile(path.join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock file that holds garbage', async () => {
    await writeFile(path.join(dir, 'lock'), 'not json');
    const lock = await acquireLock(new EngineFs(), dir, dir);
    await lock.release();
  });
});
