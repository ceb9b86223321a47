// Content-addressed blob store: `blobs/ab/cdef…` named by the sha256 of the raw bytes and
// holding them deflated (source text shrinks about 3×, which is most of what agents edit).
// Written temp → fsync → rename; large files are streamed in bounded chunks so a big file is
// never held in memory; a blob is verified against its name before it is written back.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Transform, Readable, pipeline } from 'node:stream';
import { createDeflateRaw, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { type EngineFs, isNotFound } from './fs.js';

/** Level 1: most of the size win for a fraction of the time of the default level. */
const DEFLATE_LEVEL = 1;

function through(source: AsyncIterable<Buffer>, transform: Transform): AsyncIterable<Buffer> {
  // pipeline carries a failure on either side to the consumer's loop; the callback only swallows the echo.
  return pipeline(Readable.from(source), transform, () => undefined) as unknown as AsyncIterable<Buffer>;
}

/** Files up to this size are read into memory in one go; larger ones are streamed. */
const IN_MEMORY_LIMIT = 1 << 20;

export class BlobMismatchError extends Error {
  constructor(readonly hash: string, readonly reason: 'missing' | 'mismatch') {
    super(reason === 'missing' ? `blob ${hash} is missing` : `blob ${hash} does not match its hash`);
  }
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export class BlobStore {
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];
  private sweeping: Promise<void> | null = null;
  /** Blobs this process wrote without fsync (diff material); synced once a capture relies on them. */
  private readonly unsynced = new Set<string>();

  constructor(private readonly fs: EngineFs, readonly dir: string) {}

  /** Puts wait while a sweep runs; a sweep waits for running puts to finish. */
  private async enter(): Promise<void> {
    while (this.sweeping) await this.sweeping;
    this.inflight++;
  }

  private leave(): void {
    this.inflight--;
    if (this.inflight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  async exclusive<T>(run: () => Promise<T>): Promise<T> {
    while (this.sweeping) await this.sweeping;
    let done!: () => void;
    this.sweeping = new Promise((resolve) => { done = resolve; });
    try {
      while (this.inflight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      return await run();
    } finally {
      this.sweeping = null;
      done();
    }
  }

  /** Stores the bytes; `onStored` runs before a sweep may start (callers pin the hash there). */
  async putBytes(data: Uint8Array, onStored?: (hash: string) => void, durable = true): Promise<{ hash: string; size: number }> {
    await this.enter();
    try {
      const stored = await this.putBytesUnguarded(data, durable);
      onStored?.(stored.hash);
      return stored;
    } finally {
      this.leave();
    }
  }

  /**
   * Copies a file into the store. `durable: false` skips the fsyncs: for after-contents, which
   * only diffs read; a later capture that finds such a blob syncs it before relying on it.
   */
  async putFile(abs: string, knownSize: number, onStored?: (hash: string) => void, durable = true): Promise<{ hash: string; size: number }> {
    await this.enter();
    try {
      const stored = knownSize <= IN_MEMORY_LIMIT
        ? await this.putBytesUnguarded(await this.fs.readFile(abs), durable)
        : await this.streamIn(abs, durable);
      onStored?.(stored.hash);
      return stored;
    } finally {
      this.leave();
    }
  }

  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  async has(hash: string): Promise<boolean> {
    return (await this.fs.lstatOrNull(this.pathOf(hash))) !== null;
  }

  private async ensureSynced(hash: string, durable: boolean): Promise<void> {
    if (!durable || !this.unsynced.has(hash)) return;
    await this.fs.fsyncFile(this.pathOf(hash));
    this.unsynced.delete(hash);
  }

  private async putBytesUnguarded(data: Uint8Array, durable: boolean): Promise<{ hash: string; size: number }> {
    const hash = sha256(data);
    if (await this.has(hash)) {
      await this.ensureSynced(hash, durable);
    } else {
      await this.fs.mkdirp(path.dirname(this.pathOf(hash)));
      // Temp files live in the store's top directory, where recovery looks for leftovers.
      const target = await this.fs.createAtomic(path.join(this.dir, 'incoming'), 0o444, { durable });
      try {
        await target.write(deflateRawSync(data, { level: DEFLATE_LEVEL }));
      } catch (e) {
        await target.abort();
        throw e;
      }
      await target.commit(this.pathOf(hash));
      if (!durable) this.unsynced.add(hash);
    }
    return { hash, size: data.length };
  }

  /** Copies a file into the store while hashing it (one read, bounded memory). */
  private async streamIn(abs: string, durable: boolean): Promise<{ hash: string; size: number }> {
    const target = await this.fs.createAtomic(path.join(this.dir, 'incoming'), 0o444, { durable });
    const hasher = createHash('sha256');
    let size = 0;
    const fs = this.fs;
    const raw = async function* () {
      for await (const chunk of fs.readChunks(abs)) {
        hasher.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    };
    try {
      for await (const packed of through(raw(), createDeflateRaw({ level: DEFLATE_LEVEL }))) await target.write(packed);
    } catch (e) {
      await target.abort();
      throw e;
    }
    const hash = hasher.digest('hex');
    if (await this.has(hash)) {
      await target.abort();
      await this.ensureSynced(hash, durable);
    } else {
      await this.fs.mkdirp(path.dirname(this.pathOf(hash)));
      await target.commit(this.pathOf(hash));
      if (!durable) this.unsynced.add(hash);
    }
    return { hash, size };
  }

  /** Hash of a file on disk, read in bounded chunks; nothing is stored. */
  async hashFile(abs: string, knownSize: number): Promise<string> {
    if (knownSize <= IN_MEMORY_LIMIT) return sha256(await this.fs.readFile(abs));
    const hasher = createHash('sha256');
    for await (const chunk of this.fs.readChunks(abs)) hasher.update(chunk);
    return hasher.digest('hex');
  }

  /** The raw bytes of a blob, in bounded chunks; a blob that does not inflate is a mismatch. */
  private async *chunksOf(hash: string): AsyncGenerator<Buffer> {
    try {
      yield* through(this.fs.readChunks(this.pathOf(hash)), createInflateRaw());
    } catch (e) {
      if (isNotFound(e)) throw new BlobMismatchError(hash, 'missing');
      if ((e as NodeJS.ErrnoException)?.code?.startsWith('Z_')) throw new BlobMismatchError(hash, 'mismatch');
      throw e;
    }
  }

  /** The first `limit` raw bytes of a blob (for display; not verified). */
  async readHead(hash: string, limit: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.chunksOf(hash)) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
    return Buffer.concat(parts).subarray(0, limit);
  }

  /** The blob's raw bytes, verified against its hash. */
  async read(hash: string): Promise<Buffer> {
    let packed: Buffer;
    try {
      packed = await this.fs.readFile(this.pathOf(hash));
    } catch (e) {
      if (isNotFound(e)) throw new BlobMismatchError(hash, 'missing');
      throw e;
    }
    let data: Buffer;
    try {
      data = inflateRawSync(packed);
    } catch {
      throw new BlobMismatchError(hash, 'mismatch');
    }
    if (sha256(data) !== hash) throw new BlobMismatchError(hash, 'mismatch');
    return data;
  }

  /**
   * Writes the blob to `dest` atomically with `mode`. The copy is hashed on the way and the
   * temp file is renamed into place only when it matches, so a corrupt blob never lands.
   */
  async writeTo(hash: string, dest: string, mode: number, knownSize?: number): Promise<void> {
    if (knownSize !== undefined && knownSize <= IN_MEMORY_LIMIT) {
      // Small blobs: one read, verified in memory, then the usual atomic write.
      await this.fs.writeFileAtomic(dest, await this.read(hash), mode);
      return;
    }
    if (!(await this.has(hash))) throw new BlobMismatchError(hash, 'missing');
    const target = await this.fs.createAtomic(dest, mode);
    const hasher = createHash('sha256');
    try {
      for await (const chunk of this.chunksOf(hash)) {
        hasher.update(chunk);
        await target.write(chunk);
      }
    } catch (e) {
      await target.abort();
      throw e;
    }
    if (hasher.digest('hex') !== hash) {
      await target.abort();
      throw new BlobMismatchError(hash, 'mismatch');
    }
    await target.commit();
  }

  async remove(hash: string): Promise<void> {
    this.unsynced.delete(hash);
    try { await this.fs.unlink(this.pathOf(hash)); } catch (e) { if (!isNotFound(e)) throw e; }
  }
}
