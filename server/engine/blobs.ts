// Content-addressed blob store: `blobs/ab/cdef…` named by the sha256 of the raw bytes and
// holding them deflated (source text shrinks about 3×, which is most of what agents edit).
// Written temp → fsync → rename; large files are streamed in bounded chunks so a big file is
// never held in memory; a blob is verified against its name before it is written back.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Transform, Readable, pipeline } from 'node:stream';
import { createDeflateRaw, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { type EngineFs, isNotFound } from './fs.js';
import { inParallel } from './parallel.js';

/** Level 1: most of the size win for a fraction of the time of the default level. */
const DEFLATE_LEVEL = 1;

function through(source: AsyncIterable<Buffer>, transform: Transform): AsyncIterable<Buffer> {
  // pipeline carries a failure on either side to the consumer's loop; the callback only swallows the echo.
  return pipeline(Readable.from(source), transform, () => undefined) as unknown as AsyncIterable<Buffer>;
}

/** Files up to this size are read into memory in one go; larger ones are streamed. */
export const IN_MEMORY_LIMIT = 1 << 20;

/** Bound on the contents held in memory between checkpoints; past it, blob files are written at once. */
const PENDING_LIMIT = 32 << 20;

/**
 * 'sync': flushed before it counts; 'deferred': the caller commits the bytes that are not
 * flushed yet with its entry (`unflushed`), and the flusher writes the file later; 'none': diff material.
 */
export type Durability = 'sync' | 'deferred' | 'none';

export interface StoredBlob {
  hash: string;
  size: number;
  /** The raw bytes, when they were read into memory (small files). */
  bytes?: Buffer;
  /** With 'deferred': the blob file is not flushed yet, so the caller commits `bytes`. */
  unflushed?: boolean;
}

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
  /** Small contents not written as files yet (see `writePending`); read from here meanwhile. */
  private readonly pending = new Map<string, Buffer>();
  private pendingBytes = 0;

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
  async putBytes(data: Uint8Array, onStored?: (hash: string) => void, durable = true): Promise<StoredBlob> {
    await this.enter();
    try {
      const stored = await this.putBytesUnguarded(data, durable ? 'sync' : 'none');
      onStored?.(stored.hash);
      return stored;
    } finally {
      this.leave();
    }
  }

  /**
   * Copies a file into the store. `durability` 'none' skips the fsyncs: for after-contents,
   * which only diffs read; 'deferred' leaves a small content to the caller's commit (see
   * `Durability`); a later capture that finds an unflushed blob commits or syncs it first.
   */
  async putFile(abs: string, knownSize: number, onStored?: (hash: string) => void, durability: Durability = 'sync'): Promise<StoredBlob> {
    await this.enter();
    try {
      const stored = knownSize <= IN_MEMORY_LIMIT
        ? await this.putBytesUnguarded(await this.fs.readSmallFile(abs), durability)
        // Streamed content is too big to hold in a commit: it is flushed where it lies.
        : await this.streamIn(abs, durability !== 'none');
      onStored?.(stored.hash);
      return stored;
    } finally {
      this.leave();
    }
  }

  /** The fan-out directories known to exist (nothing removes them once made). */
  private readonly fanDirs = new Set<string>();

  private async ensureFanDir(hash: string): Promise<void> {
    const fan = hash.slice(0, 2);
    if (this.fanDirs.has(fan)) return;
    await this.fs.mkdirp(path.join(this.dir, fan));
    this.fanDirs.add(fan);
  }

  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  unsyncedHashes(): string[] {
    return [...this.unsynced];
  }

  /** Whether the content is held in memory, its blob file not written yet. */
  isPending(hash: string): boolean {
    return this.pending.has(hash);
  }

  async has(hash: string): Promise<boolean> {
    return this.pending.has(hash) || (await this.fs.lstatOrNull(this.pathOf(hash))) !== null;
  }

  private async ensureSynced(hash: string, durable: boolean): Promise<void> {
    if (!durable || !this.unsynced.has(hash)) return;
    await this.materialize(hash);
    await this.fs.fsyncFile(this.pathOf(hash));
    this.unsynced.delete(hash);
  }

  /** Writes a pending content as its blob file (no flush), then lets go of it. */
  private async materialize(hash: string): Promise<void> {
    const data = this.pending.get(hash);
    if (!data) return;
    await this.writeBlobFile(hash, data, false);
    this.pending.delete(hash);
    this.pendingBytes -= data.length;
  }

  /** Writes every pending content as its blob file (the flusher, off the agent's path). */
  async writePending(): Promise<void> {
    await this.enter();
    try {
      for (const hash of [...this.pending.keys()]) await this.materialize(hash);
    } finally {
      this.leave();
    }
  }

  private async writeBlobFile(hash: string, data: Uint8Array, durable: boolean): Promise<void> {
    await this.ensureFanDir(hash);
    // Temp files live in the store's top directory, where recovery looks for leftovers.
    const target = await this.fs.createAtomic(path.join(this.dir, 'incoming'), 0o444, { durable, modeAtOpen: true });
    try {
      await target.write(deflateRawSync(data, { level: DEFLATE_LEVEL }));
    } catch (e) {
      await target.abort();
      throw e;
    }
    await target.commit(this.pathOf(hash));
  }

  /** Makes sure the blob holds exactly `data`, durably (recovery of a content still pending). */
  async restore(hash: string, data: Buffer): Promise<void> {
    try {
      await this.read(hash);
      await this.fs.fsyncFile(this.pathOf(hash));
      return;
    } catch (e) {
      if (!(e instanceof BlobMismatchError)) throw e;
    }
    await this.remove(hash);
    await this.putBytes(data);
  }

  /** Syncs blobs written without a flush (the flusher); gone ones are skipped. */
  async syncMany(hashes: string[]): Promise<void> {
    // Side by side: concurrent fsyncs share the filesystem's journal commits.
    await inParallel(hashes, async (hash) => {
      // A content still held in memory has no file to sync yet: it stays unflushed, so a
      // capture that finds it still commits its bytes.
      if (!this.unsynced.has(hash) || this.pending.has(hash)) return;
      try { await this.fs.fsyncFile(this.pathOf(hash)); } catch (e) { if (!isNotFound(e)) throw e; }
      this.unsynced.delete(hash);
    }, 16);
  }

  private async putBytesUnguarded(data: Uint8Array, durability: Durability): Promise<StoredBlob> {
    const hash = sha256(data);
    const durable = durability === 'sync';
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (await this.has(hash)) {
      await this.ensureSynced(hash, durable);
    } else if (!durable && this.pendingBytes + bytes.length <= PENDING_LIMIT) {
      // Kept in memory until the flusher writes it: the caller's commit (or nothing, for diff
      // material) is what keeps it, and the agent does not wait for the blob file.
      this.pending.set(hash, bytes);
      this.pendingBytes += bytes.length;
      this.unsynced.add(hash);
    } else {
      await this.writeBlobFile(hash, data, durable);
      if (!durable) this.unsynced.add(hash);
    }
    // Content not yet flushed goes into the caller's commit, whose one flush makes the capture safe.
    return { hash, size: data.length, bytes, unflushed: durability === 'deferred' && this.unsynced.has(hash) };
  }

  /** Copies a file into the store while hashing it (one read, bounded memory). */
  private async streamIn(abs: string, durable: boolean): Promise<StoredBlob> {
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
    if (knownSize <= IN_MEMORY_LIMIT) return sha256(await this.fs.readSmallFile(abs));
    const hasher = createHash('sha256');
    for await (const chunk of this.fs.readChunks(abs)) hasher.update(chunk);
    return hasher.digest('hex');
  }

  /** The raw bytes of a blob, in bounded chunks; a blob that does not inflate is a mismatch. */
  async *chunksOf(hash: string): AsyncGenerator<Buffer> {
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
    const pending = this.pending.get(hash);
    if (pending) return pending.subarray(0, limit);
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.chunksOf(hash)) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
    return Buffer.concat(parts).subarray(0, limit);
  }

  /** The blob's raw bytes, verified against its hash (`small`: its content is known to be at most about a megabyte). */
  async read(hash: string, small = false): Promise<Buffer> {
    const pending = this.pending.get(hash);
    if (pending) return pending;
    let packed: Buffer;
    try {
      packed = await (small ? this.fs.readSmallFile(this.pathOf(hash)) : this.fs.readFile(this.pathOf(hash)));
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

  async remove(hash: string): Promise<void> {
    this.unsynced.delete(hash);
    const pending = this.pending.get(hash);
    if (pending) { this.pending.delete(hash); this.pendingBytes -= pending.length; }
    try { await this.fs.unlink(this.pathOf(hash)); } catch (e) { if (!isNotFound(e)) throw e; }
  }
}
