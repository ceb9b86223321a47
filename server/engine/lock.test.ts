import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError } from './errors.js';
import { acquireLock, type Lock } from './lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lockModule = fileURLToPath(new URL('./lock.ts', import.meta.url));

/** The process's state letter in /proc (`Z`: a zombie), or null once it is gone. */
function procState(pid: number): string | null {
  try {
    return /\) (\S) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('data dir lock', () => {
  it('is held by one owner at a time and free again once released', async () => {
    const lock = await acquireLock(dir, dir);
    await expect(acquireLock(dir, dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
    const again = await acquireLock(dir, dir);
    await again.release();
  });

  it('names the live holder', async () => {
    const lock = await acquireLock(dir, dir);
    await expect(acquireLock(dir, dir)).rejects.toMatchObject({ details: { pid: process.pid } });
    await lock.release();
  });

  it('ignores a lock file left by a process that no longer exists', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await writeFile(path.join(dir, 'lock'), JSON.stringify({ pid: Number(dead.stdout) }));
    const lock = await acquireLock(dir, dir);
    expect(JSON.parse(await readFile(path.join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('ignores a lock file that holds garbage', async () => {
    await writeFile(path.join(dir, 'lock'), 'not json');
    const lock = await acquireLock(dir, dir);
    await lock.release();
  });

  it.skipIf(process.platform !== 'linux')(
    'is free once its holder is killed, though its parent never reaps it (a zombie)',
    async () => {
      // sh starts the holder in the background and becomes `sleep`, which never waits on it.
      const holder = `import { acquireLock } from ${JSON.stringify(lockModule)};
        await acquireLock(${JSON.stringify(dir)}, ${JSON.stringify(dir)}); process.stdout.write('held\\n'); setInterval(() => {}, 1000);`;
      const parent = spawn(
        'sh',
        [
          '-c',
          `"$0" --import tsx --input-type=module -e "$1" & echo "pid $!"; exec sleep 600`,
          process.execPath,
          holder,
        ],
        { cwd: path.dirname(path.dirname(path.dirname(lockModule))), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        let out = '';
        parent.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
        for (let i = 0; i < 1200 && !/held/.test(out); i++) await pause(50);
        expect(out).toMatch(/held/);
        const pid = Number(/pid (\d+)/.exec(out)![1]);
        await expect(acquireLock(dir, dir)).rejects.toMatchObject({ details: { pid } });

        process.kill(pid, 'SIGKILL');
        for (let i = 0; i < 600 && procState(pid) !== 'Z'; i++) await pause(50);
        expect(procState(pid)).toBe('Z');
        // The leader shows Z while its other threads may still be exiting with the socket:
        // freed soon after. A lock judged by kill(pid, 0) stays held for as long as the zombie.
        let lock: Lock | null = null;
        for (let i = 0; i < 300 && !lock; i++) {
          lock = await acquireLock(dir, dir).catch(async (e: unknown) => {
            if (!(e instanceof DataDirLockedError)) throw e;
            await pause(100);
            return null;
          });
        }
        expect(procState(pid)).toBe('Z');
        if (!lock) throw new Error('the lock is still held by the zombie');
        expect(existsSync(path.join(dir, 'lock'))).toBe(true);
        await lock.release();
      } finally {
        parent.kill('SIGKILL');
      }
    },
    60_000,
  );
});
