// The content store: every kept file content, named by the sha256 of its raw bytes, lives in
// SQLite beside the metadata that needs it. A content's life has two states only:
//   held    read for keeping, not in the store yet (in memory, or staged: parts written in
//           SQLite under no name, invisible to lookups and to the sweep);
//   stored  inserted under its hash by the very transaction that records what needs it (an
//           entry, a commit, the workspace index), so nothing can sweep it in between, and it
//           is durable exactly when that record is.
// Parts are written raw on the agent's path; the packer re-encodes them later, most as deltas
// against another version of the same path (packer.ts).
// Every read is verified against the hash: a damaged or missing content is UNRESTORABLE,
// never wrong bytes.
import { createHash } from 'node:crypto';
import { BrokenPartError, ContentParts, PART_SIZE, type StoredContent } from './content-parts.js';
import { Packer } from './packer.js';
import type { ContentRows } from '../db/contents.js';
import type { Store } from '../db/store.js';

export { PART_SIZE };
/** Files up to this size are read whole; larger ones are streamed. */
export const IN_MEMORY_LIMIT = PART_SIZE;
/** Held contents a batch keeps in memory before it stages the rest in SQLite. */
const BATCH_MEMORY = 32 << 20;

export class UnrestorableContentError extends Error {
  readonly code = 'UNRESTORABLE' as const;
  constructor(
    readonly hash: string,
    readonly reason: 'missing' | 'mismatch',
  ) {
    super(
      reason === 'missing' ? `the kept content ${hash} is missing` : `the kept content ${hash} does not match its hash`,
    );
    this.name = 'UnrestorableContentError';
  }
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A content read for keeping: stored by `ContentBatch.commit` inside the transaction that needs it. */
export interface PendingContent {
  readonly hash: string;
  readonly size: number;
}

interface Held extends PendingContent {
  bytes?: Buffer;
  stagedId?: number;
}

function* partsOf(bytes: Buffer): Generator<Buffer> {
  if (bytes.length === 0) {
    yield bytes;
    return;
  }
  for (let at = 0; at < bytes.length; at += PART_SIZE) yield bytes.subarray(at, Math.min(bytes.length, at + PART_SIZE));
}

export class ContentStore {
  private readonly parts: ContentParts;
  private readonly packer: Packer;

  private readonly rows: ContentRows;

  constructor(private readonly store: Store) {
    this.rows = store.contents;
    this.parts = new ContentParts(this.rows);
    this.packer = new Packer(store, this.parts);
  }

  private get db() {
    return this.store.db;
  }

  has(hash: string): boolean {
    return this.rows.has(hash);
  }

  /** Which of these contents are stored (`has` for many at once). */
  present(hashes: string[]): Set<string> {
    return this.rows.present(hashes);
  }

  private row(hash: string): StoredContent | undefined {
    return this.parts.byHash(hash);
  }

  /** A new, unnamed row for a content being staged part by part. */
  beginStaged(): number {
    return this.store.relaxed(() => this.rows.beginStaged());
  }

  appendStaged(id: number, index: number, data: Buffer): void {
    this.store.relaxed(() => this.rows.appendStaged(id, index, data));
  }

  dropStaged(id: number): void {
    this.store.relaxed(() => this.rows.dropStaged(id));
  }

  /** Inside a transaction: the held content becomes stored under its hash (a copy already there wins). */
  insert(held: Held): void {
    if (!this.db.inTransaction) throw new Error('contents are stored inside the transaction that references them');
    if (held.stagedId !== undefined) {
      if (this.has(held.hash)) this.dropStaged(held.stagedId);
      else this.rows.nameStaged(held.stagedId, held.hash);
      return;
    }
    if (!held.bytes || this.has(held.hash)) return;
    const parts = [...partsOf(held.bytes)];
    const stored = parts.reduce((n, part) => n + part.length, 0);
    const id = this.rows.insertRaw(held.hash, held.size, parts.length, stored);
    this.parts.write(id, parts);
  }

  /** A content's raw bytes, verified against its hash (for contents known to be small). */
  read(hash: string): Buffer {
    const row = this.row(hash);
    if (!row) throw new UnrestorableContentError(hash, 'missing');
    const parts: Buffer[] = [];
    for (let i = 0; i < row.parts; i++) parts.push(this.decoded(row, i));
    const data = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    if (data.length !== row.size || sha256(data) !== hash) throw new UnrestorableContentError(hash, 'mismatch');
    return data;
  }

  private decoded(row: StoredContent, index: number): Buffer {
    try {
      return this.parts.decoded(row, index);
    } catch (e) {
      if (e instanceof BrokenPartError) throw new UnrestorableContentError(row.hash, e.reason);
      throw e;
    }
  }

  /** The raw bytes part by part, bounded in memory; throws at the end when they do not match the hash. */
  async *chunks(hash: string): AsyncGenerator<Buffer> {
    const row = this.row(hash);
    if (!row) throw new UnrestorableContentError(hash, 'missing');
    const hasher = createHash('sha256');
    let size = 0;
    for (let i = 0; i < row.parts; i++) {
      // Read afresh for each part: between two, the packer may have encoded the content anew
      // (the same bytes), or the sweep removed it.
      const now = i === 0 ? row : this.row(hash);
      if (!now) throw new UnrestorableContentError(hash, 'missing');
      const data = this.decoded(now, i);
      hasher.update(data);
      size += data.length;
      yield data;
    }
    if (size !== row.size || hasher.digest('hex') !== hash) throw new UnrestorableContentError(hash, 'mismatch');
  }

  /** Whether the content reads back whole and matches its hash (what preview promises). */
  async verify(hash: string): Promise<boolean> {
    try {
      for await (const chunk of this.chunks(hash)) void chunk.length;
      return true;
    } catch (e) {
      if (e instanceof UnrestorableContentError) return false;
      throw e;
    }
  }

  /** The first `limit` raw bytes (for display; not verified). */
  readHead(hash: string, limit: number): Buffer {
    const row = this.row(hash);
    if (!row) throw new UnrestorableContentError(hash, 'missing');
    const parts: Buffer[] = [];
    let size = 0;
    for (let i = 0; i < row.parts && size < limit; i++) {
      const data = this.decoded(row, i);
      parts.push(data);
      size += data.length;
    }
    return Buffer.concat(parts).subarray(0, limit);
  }

  /**
   * Inside a transaction: removes these stored contents together. A kept content stored as a
   * delta against one of them is written back raw first (the packer encodes it again): a
   * removal never takes a base a kept content needs. A base removed with all its dependants is
   * never written back raw.
   */
  removeAll(hashes: string[]): void {
    if (!this.db.inTransaction) throw new Error('contents are removed inside a transaction');
    const rows = hashes.map((hash) => this.row(hash)).filter((r): r is StoredContent => r !== undefined);
    const going = new Set(rows.map((r) => r.id));
    for (const row of rows) {
      for (const dependant of this.parts.dependants(row.id)) if (!going.has(dependant.id)) this.parts.unpack(dependant);
    }
    for (const row of rows) {
      this.parts.delete(row.id);
      this.rows.remove(row.id);
    }
  }

  /** Stored contents nothing needs: no turn references them and the workspace index does not name them. */
  unreferenced(): string[] {
    return this.rows.unreferenced();
  }

  /** Staged rows a crash left behind (never committed under a name). */
  removeAbandoned(): number {
    const ids = this.rows.stagedIds();
    if (ids.length > 0)
      this.store.relaxed(() => {
        for (const id of ids) this.dropStaged(id);
      });
    return ids.length;
  }

  stats(): { blobs: number; bytes: number; storedBytes: number } {
    return this.rows.stats();
  }

  /** Re-encodes raw contents, off the agent's path (packer.ts); answers how many it looked at. */
  pack(limit = 256, before?: () => Promise<boolean>): Promise<number> {
    return this.packer.pack(limit, before);
  }

  /** A batch for one record; `memory` bounds what it holds in memory (the rest is staged). */
  batch(memory = BATCH_MEMORY): ContentBatch {
    return new ContentBatch(this, memory);
  }
}

/**
 * Contents held for one record (a capture, a commit, a scan batch): small ones in memory up to
 * a bound, the rest staged in SQLite, all stored by `commit()` inside the record's transaction.
 */
export class ContentBatch {
  private readonly held: Held[] = [];
  private memory = 0;

  constructor(
    private readonly contents: ContentStore,
    private readonly budget: number,
  ) {}

  get size(): number {
    return this.held.length;
  }

  keepBytes(bytes: Buffer): PendingContent {
    const held: Held = { hash: sha256(bytes), size: bytes.length };
    if (this.memory + bytes.length <= this.budget) {
      held.bytes = bytes;
      this.memory += bytes.length;
    } else {
      held.stagedId = this.contents.beginStaged();
      let index = 0;
      for (const part of partsOf(bytes)) this.contents.appendStaged(held.stagedId, index++, part);
    }
    this.held.push(held);
    return { hash: held.hash, size: held.size };
  }

  /** Stages a content read in chunks (never whole in memory), hashing it on the way. */
  async keepStream(chunks: AsyncIterable<Buffer>): Promise<PendingContent> {
    const id = this.contents.beginStaged();
    const hasher = createHash('sha256');
    let size = 0;
    let index = 0;
    let carry: Buffer[] = [];
    let carried = 0;
    const flush = (final: boolean) => {
      while (carried >= PART_SIZE || (final && (carried > 0 || index === 0))) {
        // A chunk that alone makes the part (a read of exactly a part, the usual case) is passed on as it is.
        const all = carry.length === 1 ? carry[0] : Buffer.concat(carry);
        const part = all.subarray(0, Math.min(PART_SIZE, all.length));
        this.contents.appendStaged(id, index++, part);
        carry = all.length > part.length ? [all.subarray(part.length)] : [];
        carried = all.length - part.length;
        if (final && carried === 0) break;
      }
    };
    try {
      for await (const chunk of chunks) {
        hasher.update(chunk);
        size += chunk.length;
        carry.push(chunk);
        carried += chunk.length;
        flush(false);
      }
      flush(true);
    } catch (e) {
      this.contents.dropStaged(id);
      throw e;
    }
    const held: Held = { hash: hasher.digest('hex'), size, stagedId: id };
    this.held.push(held);
    return { hash: held.hash, size };
  }

  /** Inside the record's transaction: every held content becomes stored. Answers their hashes. */
  commit(): string[] {
    const hashes: string[] = [];
    for (const held of this.held.splice(0)) {
      this.contents.insert(held);
      hashes.push(held.hash);
    }
    this.memory = 0;
    return hashes;
  }

  /** After a failure: drops what was staged. */
  discard(): void {
    for (const held of this.held.splice(0)) if (held.stagedId !== undefined) this.contents.dropStaged(held.stagedId);
    this.memory = 0;
  }
}
