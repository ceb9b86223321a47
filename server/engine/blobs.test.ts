import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobMismatchError, BlobStore, sha256 } from './blobs.js';
import { EngineFs } from './fs.js';
import { stageBlob } from './staged.js';

let dir: string;
let blobs: BlobStore;
let fs: EngineFs;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-blobs-'));
  fs = new EngineFs();
  blobs = new BlobStore(fs, path.join(dir, 'blobs'));
  await fs.mkdirp(blobs.dir);
});
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

async function writeTo(hash: string, dest: string, mode: number): Promise<void> {
  const staged = await stageBlob(fs, blobs, hash, dest, mode);
  await staged.flush();
  await staged.place();
}

describe('blob store', () => {
  it('names blobs by sha256 under a two-character fan-out and dedups', async () => {
    const data = Buffer.from('hello\n');
    const a = await blobs.putBytes(data);
    const b = await blobs.putBytes(data);
    expect(a).toMatchObject({ hash: sha256(data), size: 6 });
    expect(b.hash).toBe(a.hash);
    expect(blobs.pathOf(a.hash)).toBe(path.join(blobs.dir, a.hash.slice(0, 2), a.hash.slice(2)));
    expect((await blobs.read(a.hash)).toString('utf8')).toBe('hello\n');
  });

  it('keeps text deflated on disk and gives the raw bytes back', async () => {
    const text = Buffer.from('export const answer = 42;\n'.repeat(2000));
    const { hash } = await blobs.putBytes(text);
    expect((await stat(blobs.pathOf(hash))).size).toBeLessThan(text.length / 10);
    expect((await blobs.read(hash)).equals(text)).toBe(true);
    expect((await blobs.readHead(hash, 10)).toString()).toBe('export con');
  });

  it('streams a large file in and back out byte for byte with the mode asked for', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    const source = path.join(dir, 'big.bin');
    await writeFile(source, big);
    const { hash, size } = await blobs.putFile(source, big.length);
    expect(size).toBe(big.length);
    expect(hash).toBe(sha256(big));
    const dest = path.join(dir, 'restored.bin');
    await writeTo(hash, dest, 0o755);
    expect((await readFile(dest)).equals(big)).toBe(true);
    expect((await stat(dest)).mode & 0o777).toBe(0o755);
  });

  it('refuses to write back a blob whose bytes no longer match its name', async () => {
    const { hash } = await blobs.putBytes(Buffer.from('original'));
    await chmod(blobs.pathOf(hash), 0o644);
    await writeFile(blobs.pathOf(hash), 'tampered');
    const dest = path.join(dir, 'out.txt');
    await expect(writeTo(hash, dest, 0o644)).rejects.toBeInstanceOf(BlobMismatchError);
    await expect(stat(dest)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(blobs.read(hash)).rejects.toMatchObject({ reason: 'mismatch' });
  });

  it('reports a missing blob', async () => {
    await expect(writeTo('ab'.repeat(32), path.join(dir, 'x'), 0o644)).rejects.toMatchObject({ reason: 'missing' });
  });

  it('never counts a content still held in memory as flushed: a capture of it commits its bytes', async () => {
    const data = Buffer.from('after-content of a turn, not yet written as a file\n');
    const { hash } = await blobs.putBytes(data, undefined, false);
    // A flush that runs while the content is still in memory (another session captured it meanwhile).
    await blobs.syncMany([hash]);
    const source = path.join(dir, 'same.txt');
    await writeFile(source, data);
    const captured = await blobs.putFile(source, data.length, undefined, 'deferred');
    expect(captured).toMatchObject({ hash, unflushed: true });
    expect(captured.bytes?.equals(data)).toBe(true);
  });

  it('a sweep waits for a write in progress and writes wait for a sweep', async () => {
    const order: string[] = [];
    let release!: () => void;
    let reached!: () => void;
    const atGate = new Promise<void>((r) => { reached = r; });
    const gate = new Promise<void>((r) => { release = r; });
    fs.beforeOp = async (op) => { if (op === 'open') { reached(); await gate; } };
    const put = blobs.putBytes(Buffer.from('slow'));
    await atGate;
    const sweep = blobs.exclusive(async () => { order.push((await blobs.has(sha256(Buffer.from('slow')))) ? 'sweep after put' : 'sweep during put'); });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    fs.beforeOp = undefined;
    release();
    await Promise.all([put, sweep]);
    expect(order).toEqual(['sweep after put']);
  });
});
