// An atomic write leaves exactly the mode asked for, whether the mode given at open stood (no
// chmod) or the umask or the bits closed while writing took something off (chmod before the
// rename); the temp file is never writable by others nor set-id while it is written.
import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineFs } from './fs.js';

let base: string;
let fs: EngineFs;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'turnback-atomic-'));
  await mkdir(join(base, 'ws'));
  fs = new EngineFs();
  fs.addRoot(join(base, 'ws'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('an atomic write', () => {
  it.each([0o644, 0o755, 0o600, 0o000, 0o666, 0o777, 0o4755, 0o2750, 0o1777])(
    'places mode %o exactly',
    async (mode) => {
      const dest = join(base, 'ws', 'f');
      await fs.writeFileAtomic(dest, Buffer.from('bytes'), mode);
      expect((await lstat(dest)).mode & 0o7777).toBe(mode);
      expect(await readFile(dest, 'utf8')).toBe('bytes');
      expect(await readdir(join(base, 'ws'))).toEqual(['f']);
    },
  );

  it('opens its temp file closed to writers other than the owner and without set-id bits', async () => {
    const opens = vi.spyOn(nodeFs, 'openSync');
    const chmods = vi.spyOn(nodeFs, 'fchmodSync');
    try {
      await fs.writeFileAtomic(join(base, 'ws', 'shared'), Buffer.from('x'), 0o4777);
      const created = opens.mock.calls.find((call) => String(call[0]).includes('.turnback-tmp-'));
      expect(Number(created?.[2]) & 0o7022).toBe(0);
      expect(chmods).toHaveBeenCalledTimes(1);
      chmods.mockClear();
      await fs.writeFileAtomic(join(base, 'ws', 'plain'), Buffer.from('x'), 0o644);
      expect(chmods).not.toHaveBeenCalled();
    } finally {
      opens.mockRestore();
      chmods.mockRestore();
    }
  });
});
