import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireServiceLock } from './lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'turnback-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lockModule = fileURLToPath(new URL('./lock.ts', import.meta.url));

/** Takes the lock in another process and dies (SIGKILL) holding it. */
async function holdThenDie(): Promise<void> {
  const code = `import { acquireServiceLock } from ${JSON.stringify(lockModule)};
    const lock = await acquireServiceLock(${JSON.stringify(dir)}); process.stdout.write(lock ? 'held' : 'refused'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  expect(await acquireServiceLock(dir)).toBeNull();
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('the service lock', () => {
  it('is held by one at a time, and names its holder', async () => {
    const first = await acquireServiceLock(dir);
    expect(first).not.toBeNull();
    expect(JSON.parse(await readFile(path.join(dir, 'service.lock'), 'utf8'))).toEqual({ pid: process.pid });
    expect(await acquireServiceLock(dir)).toBeNull();
    await first!.release();
    const again = await acquireServiceLock(dir);
    expect(again).not.toBeNull();
    await again!.release();
  });

  it('is free again once its holder is killed', async () => {
    await holdThenDie();
    const lock = await acquireServiceLock(dir);
    expect(lock).not.toBeNull();
    await lock!.release();
  });

  it('gives one of many racing takers the lock', async () => {
    const locks = await Promise.all(Array.from({ length: 8 }, () => acquireServiceLock(dir)));
    expect(locks.filter(Boolean)).toHaveLength(1);
    await locks.find(Boolean)!.release();
  });
});
