import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentStore, PART_SIZE, UnrestorableContentError, sha256 } from './contents.js';
import { migrate } from '../db/schema.js';
import { Store } from '../db/store.js';

let dir: string;
let store: Store;
let contents: ContentStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-contents-'));
  store = new Store(path.join(dir, 'turnback.db'));
  contents = new ContentStore(store);
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Stores `bytes` the way a capture does: held in a batch, stored inside the record's transaction. */
function keep(bytes: Buffer): string {
  const batch = contents.batch();
  const { hash } = batch.keepBytes(bytes);
  store.transaction(() => batch.commit());
  return hash;
}

async function collect(hash: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of contents.chunks(hash)) parts.push(chunk);
  return Buffer.concat(parts);
}

function patterned(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 31 + (i >> 11)) & 0xff;
  return data;
}

async function* chunked(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

describe('content store', () => {
  it('names contents by sha256, dedups, and reads them back verified', () => {
    const data = Buffer.from('hello\n');
    const a = keep(data);
    const b = keep(Buffer.from(data));
    expect(a).toBe(sha256(data));
    expect(b).toBe(a);
    expect(contents.stats().blobs).toBe(1);
    expect(contents.read(a).toString('utf8')).toBe('hello\n');
  });

  it('tells which of many contents are stored in one look: only those, whatever else is asked', () => {
    const [a, b] = [keep(Buffer.from('a\n')), keep(Buffer.from('b\n'))];
    const missing = sha256(Buffer.from('never stored\n'));
    expect(contents.present([a, missing, b, 'not a hash', ''])).toEqual(new Set([a, b]));
    expect(contents.present([])).toEqual(new Set());
  });

  it('stores nothing outside a transaction, and nothing a failed record held', () => {
    const batch = contents.batch();
    batch.keepBytes(Buffer.from('held'));
    expect(() => batch.commit()).toThrow(Error);
    const failed = contents.batch(0);
    failed.keepBytes(Buffer.from('staged because the batch has no memory'));
    failed.discard();
    expect(contents.stats().blobs).toBe(0);
    expect(contents.removeAbandoned()).toBe(0);
  });

  it('streams a large content in and out in parts, byte for byte, never whole in memory', async () => {
    const big = patterned(3 * PART_SIZE + 17);
    const batch = contents.batch();
    const { hash, size } = await batch.keepStream(chunked(big, 64 * 1024 + 3));
    expect({ hash, size }).toEqual({ hash: sha256(big), size: big.length });
    // Staged, not stored: invisible until the record's transaction.
    expect(contents.has(hash)).toBe(false);
    store.transaction(() => batch.commit());
    const parts: number[] = [];
    for await (const chunk of contents.chunks(hash)) parts.push(chunk.length);
    expect(parts).toEqual([PART_SIZE, PART_SIZE, PART_SIZE, 17]);
    expect((await collect(hash)).equals(big)).toBe(true);
    expect(contents.readHead(hash, 5).equals(big.subarray(0, 5))).toBe(true);
  });

  it('cuts a stream into the same parts whatever its chunks: a part each, larger than a part, none at all', async () => {
    const big = patterned(2 * PART_SIZE + 5);
    for (const [data, chunk, sizes] of [
      [big, PART_SIZE, [PART_SIZE, PART_SIZE, 5]],
      [big, 3 * PART_SIZE, [PART_SIZE, PART_SIZE, 5]],
      [big.subarray(0, 2 * PART_SIZE), PART_SIZE, [PART_SIZE, PART_SIZE]],
      [Buffer.alloc(0), PART_SIZE, [0]],
    ] as [Buffer, number, number[]][]) {
      const batch = contents.batch();
      const { hash } = await batch.keepStream(chunked(data, chunk));
      store.transaction(() => batch.commit());
      const parts: number[] = [];
      for await (const part of contents.chunks(hash)) parts.push(part.length);
      expect(parts).toEqual(sizes);
      expect((await collect(hash)).equals(data)).toBe(true);
    }
  });

  it('a staged copy of a content already stored is dropped, the stored one kept', async () => {
    const big = patterned(PART_SIZE + 1);
    const first = contents.batch();
    await first.keepStream(chunked(big, PART_SIZE));
    store.transaction(() => first.commit());
    const second = contents.batch();
    await second.keepStream(chunked(big, 1000));
    store.transaction(() => second.commit());
    expect(contents.stats().blobs).toBe(1);
    expect(contents.removeAbandoned()).toBe(0);
    expect((await collect(sha256(big))).equals(big)).toBe(true);
  });

  it('what a crash left staged is removed on the next open', async () => {
    const batch = contents.batch();
    await batch.keepStream(chunked(patterned(PART_SIZE * 2), PART_SIZE));
    // No commit, no discard: the process died here.
    expect(contents.removeAbandoned()).toBe(1);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM content_parts').get()).toEqual({ n: 0 });
  });

  it('a damaged or missing content is UNRESTORABLE, never wrong bytes', async () => {
    const good = keep(Buffer.from('kept exactly\n'));
    store.db.prepare('UPDATE content_parts SET data = ?').run(Buffer.from('kept wrongly\n'));
    expect(() => contents.read(good)).toThrow(UnrestorableContentError);
    await expect(collect(good)).rejects.toMatchObject({ code: 'UNRESTORABLE', reason: 'mismatch' });
    expect(await contents.verify(good)).toBe(false);
    expect(() => contents.read('0'.repeat(64))).toThrow(expect.objectContaining({ reason: 'missing' }));
    expect(await contents.verify('0'.repeat(64))).toBe(false);
  });

  it('a raw content damaged after it was read is found damaged on the next read', async () => {
    const data = Buffer.from('kept exactly, and read once\n');
    const hash = keep(data);
    expect(contents.read(hash).equals(data)).toBe(true);
    expect((await collect(hash)).equals(data)).toBe(true);
    store.db.prepare('UPDATE content_parts SET data = ?').run(Buffer.from('kept wrongly, after a read\n'));
    expect(() => contents.read(hash)).toThrow(expect.objectContaining({ reason: 'mismatch' }));
    await expect(collect(hash)).rejects.toMatchObject({ code: 'UNRESTORABLE', reason: 'mismatch' });
    expect(contents.readHead(hash, 5).toString('utf8')).toBe('kept ');
  });

  it('packing compresses what pays, keeps the rest raw, and changes no byte', async () => {
    const text = Buffer.from('export const answer = 42;\n'.repeat(4000));
    const noise = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + ((i * i) % 251)) & 0xff));
    const big = Buffer.from('line of a large text file\n'.repeat(100_000));
    const a = keep(text);
    const b = keep(noise);
    const batch = contents.batch();
    const { hash: c } = await batch.keepStream(chunked(big, PART_SIZE / 2));
    store.transaction(() => batch.commit());
    while ((await contents.pack(2)) > 0) {
      /* all of them */
    }
    const rows = store.db.prepare('SELECT lower(hex(hash)) AS hash, codec, stored, size FROM contents').all() as {
      hash: string;
      codec: string;
      stored: number;
      size: number;
    }[];
    const byHash = new Map(rows.map((r) => [r.hash, r]));
    expect(byHash.get(a)).toMatchObject({ codec: 'brotli' });
    expect(byHash.get(a)!.stored).toBeLessThan(text.length / 10);
    expect(byHash.get(b)).toMatchObject({ codec: 'raw', stored: noise.length });
    expect(byHash.get(c)!.stored).toBeLessThan(big.length / 10);
    expect(contents.read(a).equals(text)).toBe(true);
    expect(contents.read(b).equals(noise)).toBe(true);
    expect((await collect(c)).equals(big)).toBe(true);
  });

  it('a content that stays raw: a small one moves to the end of the tables, a large one is marked packed where it is', async () => {
    const small = randomBytes(200);
    const large = randomBytes(2 * PART_SIZE + 1000);
    const a = keep(small);
    const batch = contents.batch();
    const { hash: b } = await batch.keepStream(chunked(large, PART_SIZE / 2));
    store.transaction(() => batch.commit());
    const row = (hash: string) =>
      store.db
        .prepare('SELECT id, codec, parts, stored, packed, base_id, depth FROM contents WHERE hash = unhex(?)')
        .get(hash) as {
        id: number;
        codec: string;
        parts: number;
        stored: number;
        packed: number;
        base_id: number | null;
        depth: number;
      };
    const [smallBefore, largeBefore] = [row(a), row(b)];
    while ((await contents.pack(4)) > 0) {
      /* all of them */
    }
    expect(row(a)).toMatchObject({ codec: 'raw', parts: 1, stored: small.length, packed: 1, base_id: null, depth: 0 });
    expect(row(a).id).toBeGreaterThan(largeBefore.id);
    expect(row(b)).toEqual({ ...largeBefore, packed: 1 });
    expect(smallBefore.id).toBeLessThan(largeBefore.id);
    expect(contents.read(a).equals(small)).toBe(true);
    expect((await collect(b)).equals(large)).toBe(true);
  });
});

describe('stores from before deltas', () => {
  it('have their deflated contents packed again, byte for byte', async () => {
    const old = path.join(dir, 'v4');
    await mkdir(old);
    const text = Buffer.from('a content deflated whole before deltas\n'.repeat(500));
    const db = new Database(path.join(old, 'turnback.db'));
    migrate(db, old, 4);
    db.prepare(
      "INSERT INTO contents (id, hash, size, codec, parts, stored, packed) VALUES (1, ?, ?, 'deflate', 1, 0, 1)",
    ).run(sha256(text), text.length);
    db.prepare('INSERT INTO content_parts (id, data) VALUES (?, ?)').run(65536, deflateRawSync(text));
    db.close();
    const migrated = new Store(path.join(old, 'turnback.db'));
    try {
      const reader = new ContentStore(migrated);
      expect(reader.read(sha256(text)).equals(text)).toBe(true);
      expect(await reader.pack()).toBe(1);
      expect(migrated.db.prepare('SELECT codec FROM contents').get()).toEqual({ codec: 'brotli' });
      expect(reader.read(sha256(text)).equals(text)).toBe(true);
    } finally {
      migrated.close();
    }
  });
});

describe('stores from before contents moved into SQLite', () => {
  it('take their blob files and pending contents in on open, then drop the old folder', async () => {
    const old = path.join(dir, 'old');
    await mkdir(old);
    const fromFile = Buffer.from('content kept as a deflated blob file\n');
    const pending = Buffer.from('content still pending in SQLite\n');
    const db = new Database(path.join(old, 'turnback.db'));
    migrate(db, old, 3);
    const fileHash = sha256(fromFile);
    db.prepare('INSERT INTO blobs (hash, size) VALUES (?, ?)').run(fileHash, fromFile.length);
    db.prepare('INSERT INTO pending_contents (hash, data) VALUES (?, ?)').run(sha256(pending), pending);
    db.close();
    await mkdir(path.join(old, 'blobs', fileHash.slice(0, 2)), { recursive: true });
    await writeFile(path.join(old, 'blobs', fileHash.slice(0, 2), fileHash.slice(2)), deflateRawSync(fromFile));

    const migrated = new Store(path.join(old, 'turnback.db'));
    try {
      const reader = new ContentStore(migrated);
      expect(reader.read(fileHash).equals(fromFile)).toBe(true);
      expect(reader.read(sha256(pending)).equals(pending)).toBe(true);
      expect(existsSync(path.join(old, 'blobs'))).toBe(false);
    } finally {
      migrated.close();
    }
  });
});
