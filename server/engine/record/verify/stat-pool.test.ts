// The stat threads in a process with nothing else to do: it waits for their answer, and ends
// once they are idle (a thread left referenced after its task would keep it alive for good).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../../testkit/spawn.js';

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const child = fileURLToPath(new URL('./stat-pool-child.testutil.ts', import.meta.url));
let folder: string | null = null;

afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = null;
});

describe('stat threads', () => {
  it('keep the process alive while they run a task, and let it end once idle', async () => {
    folder = await mkdtemp(join(os.tmpdir(), 'stat-pool-'));
    await writeFile(join(folder, 'there'), 'x');
    const started = Date.now();
    const result = await runCommand(process.execPath, ['--import', tsxLoader, child, folder], { env: {} });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ differ: [0], added: [[-1, 'there']] });
    // Idle threads do not hold it for their 30 s.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
