// A folder's handle kept from one call to the next is lent again only while that folder is still
// at its path: a folder swapped for a link, or removed and made again, between two calls is
// seen as a fresh open would see it; and no kept handle outlives the work that opened it.
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkOnPathError } from '../errors.js';
import { EngineFs } from './fs.js';
import { HeldHandles } from './held-handles.js';

let base: string;
let ws: string;
let outside: string;
let fs: EngineFs;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'turnback-held-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(ws, 'real'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  fs = new EngineFs();
  fs.addRoot(ws);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a folder's kept handle", () => {
  it('is not lent once the folder was swapped for a link: the next write is the race error, nothing outside', async () => {
    await fs.writeFileAtomic(join(ws, 'real', 'a.txt'), Buffer.from('a'), 0o644);
    await rename(join(ws, 'real'), join(ws, 'moved'));
    await symlink(outside, join(ws, 'real'));
    await expect(fs.writeFileAtomic(join(ws, 'real', 'b.txt'), Buffer.from('b'), 0o644)).rejects.toBeInstanceOf(
      LinkOnPathError,
    );
    await expect(fs.lstat(join(ws, 'real', 'secret.txt'))).rejects.toBeInstanceOf(LinkOnPathError);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readdir(join(ws, 'moved'))).toEqual(['a.txt']);
  });

  it('is not lent once the folder was removed and made again: the write lands in the new folder', async () => {
    await fs.writeFileAtomic(join(ws, 'real', 'a.txt'), Buffer.from('a'), 0o644);
    await rm(join(ws, 'real'), { recursive: true });
    await mkdir(join(ws, 'real'));
    await fs.writeFileAtomic(join(ws, 'real', 'b.txt'), Buffer.from('b'), 0o644);
    expect(await readdir(join(ws, 'real'))).toEqual(['b.txt']);
    expect(await readFile(join(ws, 'real', 'b.txt'), 'utf8')).toBe('b');
  });

  it('is shared by creates and renames side by side, and not once the folder was swapped for a link', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `f${i}.txt`);
    const first = await Promise.all(
      names.map((n) => fs.createAtomic(join(ws, 'real', n), 0o644, { durable: false, overlap: true })),
    );
    await Promise.all(first.map((t, i) => t.write(Buffer.from(names[i]))));
    await Promise.all(first.map((t) => t.commit()));
    expect((await readdir(join(ws, 'real'))).sort()).toEqual([...names].sort());
    const second = await Promise.all(
      names.map((n) => fs.createAtomic(join(ws, 'real', n), 0o644, { durable: false, overlap: true })),
    );
    await Promise.all(second.map((t) => t.write(Buffer.from('again'))));
    await rename(join(ws, 'real'), join(ws, 'moved'));
    await symlink(outside, join(ws, 'real'));
    const placed = await Promise.allSettled(second.map((t) => t.commit()));
    for (const p of placed) expect(p.status === 'rejected' && p.reason).toBeInstanceOf(LinkOnPathError);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
  });

  it('is lent while its folder stays, and closed once the seam is idle', async () => {
    const held = new HeldHandles();
    const dir = join(ws, 'real');
    const fd = nodeFs.openSync(dir, nodeFs.constants.O_DIRECTORY);
    held.give(dir, fd);
    expect(held.take(dir)).toBe(fd);
    expect(held.take(dir)).toBeNull();
    held.give(dir, fd);
    const isOpen = () => nodeFs.existsSync(`/proc/self/fd/${fd}`);
    for (let waited = 0; isOpen() && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isOpen()).toBe(false);
    expect(held.take(dir)).toBeNull();
  });
});
