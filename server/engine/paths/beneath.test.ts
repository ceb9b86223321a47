// The seam beneath a root: a folder that is a symlink when a call runs is never followed (the
// race error), a link at the end of a read by URI is followed only while it stays beneath, and
// errors name the path asked for.
import { chmod, link, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodeFs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LinkOnPathError } from '../errors.js';
import { EngineFs } from './fs.js';

let base: string;
let ws: string;
let outside: string;
let fs: EngineFs;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'turnback-beneath-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(ws, 'real'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  await writeFile(join(ws, 'real', 'inside.txt'), 'inside\n');
  await symlink(outside, join(ws, 'sub'));
  fs = new EngineFs();
  fs.addRoot(ws);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const chunksOf = async (gen: AsyncGenerator<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const c of gen) parts.push(c);
  return Buffer.concat(parts).toString();
};

describe('the seam beneath a root', () => {
  it('never goes through a folder that is a symlink: reads, listings, writes, mkdir -p, removals', async () => {
    const attempts = [
      fs.lstat(join(ws, 'sub', 'secret.txt')),
      fs.readSmallFile(join(ws, 'sub', 'secret.txt'), 1 << 20),
      fs.readdir(join(ws, 'sub')),
      fs.writeFileAtomic(join(ws, 'sub', 'new.txt'), Buffer.from('x'), 0o644),
      fs.mkdirp(join(ws, 'sub', 'a', 'b')),
      fs.unlink(join(ws, 'sub', 'secret.txt')),
      fs.chmod(join(ws, 'sub', 'secret.txt'), 0o600),
      fs.rename(join(ws, 'real', 'inside.txt'), join(ws, 'sub', 'moved.txt')),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(LinkOnPathError);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect((await stat(join(outside, 'secret.txt'))).mode & 0o777).toBe(0o644);
  });

  it('a read by URI follows a link at the end only while it stays beneath the root', async () => {
    await symlink(join(ws, 'real', 'inside.txt'), join(ws, 'to-inside'));
    await symlink(join(outside, 'secret.txt'), join(ws, 'to-outside'));
    expect(await chunksOf(fs.readChunks(join(ws, 'to-inside'), Infinity, { followLink: true }))).toBe('inside\n');
    await expect(
      chunksOf(fs.readChunks(join(ws, 'to-outside'), Infinity, { followLink: true })),
    ).rejects.toBeInstanceOf(LinkOnPathError);
    // Reads that do not ask to follow never do.
    await expect(fs.readSmallFile(join(ws, 'to-inside'), 1 << 20)).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('stat follows a link at the end only while it stays beneath the root, and looks at a plain path once', async () => {
    await symlink(join(ws, 'real', 'inside.txt'), join(ws, 'to-inside'));
    await symlink(join(outside, 'secret.txt'), join(ws, 'to-outside'));
    const inside = await stat(join(ws, 'real', 'inside.txt'));
    expect((await fs.stat(join(ws, 'to-inside'))).ino).toBe(inside.ino);
    await expect(fs.stat(join(ws, 'to-outside'))).rejects.toBeInstanceOf(LinkOnPathError);
    await expect(fs.stat(join(ws, 'sub', 'secret.txt'))).rejects.toBeInstanceOf(LinkOnPathError);
    await expect(fs.stat(join(ws, 'real', 'missing.txt'))).rejects.toMatchObject({
      code: 'ENOENT',
      path: join(ws, 'real', 'missing.txt'),
    });
    expect((await fs.stat(ws)).isDirectory()).toBe(true);
    const lstats = vi.spyOn(nodeFs, 'lstatSync');
    try {
      expect((await fs.stat(join(ws, 'real', 'inside.txt'))).ino).toBe(inside.ino);
      expect(lstats).toHaveBeenCalledTimes(1);
    } finally {
      lstats.mockRestore();
    }
  });

  it('mkdir -p makes what is missing beneath the root, keeps what is there, and stops at a file', async () => {
    await fs.mkdirp(join(ws, 'real', 'a', 'b'));
    await fs.mkdirp(join(ws, 'real', 'a', 'b'));
    expect((await lstat(join(ws, 'real', 'a', 'b'))).isDirectory()).toBe(true);
    await expect(fs.mkdirp(join(ws, 'real', 'inside.txt', 'c'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(await readdir(join(ws, 'real'))).toEqual(['a', 'inside.txt']);
  });

  it('removes a tree holding a link to outside without following it', async () => {
    await symlink(outside, join(ws, 'real', 'escape'));
    await fs.rmrf(join(ws, 'real'));
    expect(await readdir(ws)).toEqual(['sub']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
  });

  it('replaces a file with other hard links instead of changing their shared mode', async () => {
    await chmod(join(outside, 'secret.txt'), 0o4755);
    await link(join(outside, 'secret.txt'), join(ws, 'real', 'linked'));
    await fs.chmod(join(ws, 'real', 'linked'), 0o640);
    expect((await stat(join(outside, 'secret.txt'))).mode & 0o7777).toBe(0o4755);
    const now = await lstat(join(ws, 'real', 'linked'));
    expect([now.mode & 0o7777, now.nlink]).toEqual([0o640, 1]);
    expect(await readFile(join(ws, 'real', 'linked'), 'utf8')).toBe('outside\n');
  });

  it('errors name the path asked for, not the handle it went through', async () => {
    await expect(fs.lstat(join(ws, 'real', 'missing.txt'))).rejects.toMatchObject({
      code: 'ENOENT',
      path: join(ws, 'real', 'missing.txt'),
    });
    const error = await fs.readdir(join(ws, 'real', 'missing')).catch((e: Error) => e);
    expect((error as Error).message).not.toContain('/proc/self/fd');
  });
});
