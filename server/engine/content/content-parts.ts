// A content's parts as the content store reads them: decoding a delta's part decodes the same
// part of its base first, down the chain to a whole content. Its rows are db/contents.ts's.
import { type Codec, decodePart } from './codecs.js';
import { DecodeCache, fingerprint } from './decode-cache.js';
import { type ContentRows, PARTS_PER_CONTENT, type StoredContent } from '../db/contents.js';

export { PARTS_PER_CONTENT, type StoredContent };

/** Contents are kept in parts of this size, so a large one is never held in memory whole. */
export const PART_SIZE = 1 << 20;
/**
 * The longest chain a read follows. The packer keeps chains to DELTA_DEPTH; this bound only
 * stops a damaged row (a cycle of bases) from looping.
 */
const MAX_CHAIN = 1000;
/**
 * A content that stays raw is moved to the ends of the tables (`replace`) up to this size, a
 * page (db/store.ts): beyond it, its bytes fill overflow pages of their own, and moving them
 * would rewrite them all for no denser page.
 */
const MOVE_RAW_LIMIT = 4096;

/** A part that cannot be read as kept: its content (or a base it needs) is missing or damaged. */
export class BrokenPartError extends Error {
  constructor(readonly reason: 'missing' | 'mismatch') {
    super(`a kept part is ${reason}`);
  }
}

export class ContentParts {
  private readonly cache = new DecodeCache();

  constructor(private readonly rows: ContentRows) {}

  byHash(hash: string): StoredContent | undefined {
    return this.rows.byHash(hash);
  }

  byId(id: number): StoredContent | undefined {
    return this.rows.byId(id);
  }

  /** The stored (encoded) bytes of a part. */
  stored(id: number, index: number): Buffer | undefined {
    return this.rows.part(id, index);
  }

  /**
   * The raw bytes of part `index` of `row`, through its chain of bases. Not verified: callers
   * check the hash. The chain's stored parts are read first (cheap), then decoded from the
   * bottom up, starting above the highest level the cache holds for exactly those bytes.
   */
  decoded(row: StoredContent, index: number): Buffer {
    const chain: { row: StoredContent; data: Buffer }[] = [];
    for (let at: StoredContent | undefined = row; at;) {
      if (chain.length > MAX_CHAIN) throw new BrokenPartError('mismatch');
      const data = this.stored(at.id, index);
      if (!data) throw new BrokenPartError('missing');
      chain.push({ row: at, data });
      if (at.codec !== 'zstd-delta') break;
      const base: StoredContent | undefined = at.baseId === null ? undefined : this.byId(at.baseId);
      if (!base || base.hash === null) throw new BrokenPartError('missing');
      // A base with fewer parts: this part is a delta against nothing.
      at = index < base.parts ? base : undefined;
    }
    // A part stored raw, on its own: its stored bytes are its bytes, nothing to decode or keep.
    if (chain.length === 1 && row.codec === 'raw') return chain[0].data;
    // Fingerprints from the bottom up; then the nearest level to the top the cache holds.
    const prints = new Array<string>(chain.length);
    for (let i = chain.length - 1; i >= 0; i--)
      prints[i] = fingerprint(chain[i].row.codec, chain[i].data, i + 1 < chain.length ? prints[i + 1] : null);
    let from = chain.length;
    let bytes: Buffer | undefined;
    for (let i = 0; i < chain.length; i++) {
      bytes = this.cache.get(prints[i]);
      if (bytes) {
        from = i;
        break;
      }
    }
    for (let i = from - 1; i >= 0; i--) {
      const { row: level, data } = chain[i];
      try {
        bytes = decodePart(level.codec, data, level.codec === 'zstd-delta' ? (bytes ?? Buffer.alloc(0)) : undefined);
      } catch {
        throw new BrokenPartError('mismatch');
      }
      this.cache.set(prints[i], bytes);
    }
    return bytes!;
  }

  write(id: number, parts: Iterable<Buffer>): void {
    this.rows.writeParts(id, parts);
  }

  delete(id: number): void {
    this.rows.deleteParts(id);
  }

  /**
   * Inside a transaction: the content stored anew under a fresh id with these parts (null: the
   * parts it has), and its dependants pointed at it. A fresh id puts the row and its parts at
   * the end of both tables, so packed parts sit densely together: written in place, a small
   * encoded part would be left alone in a leaf page its raw bytes had filled.
   */
  replace(
    row: StoredContent,
    next: { codec: Codec; baseId: number | null; depth: number; parts: Buffer[] | null },
  ): number {
    const parts =
      next.parts ??
      Array.from({ length: row.parts }, (_, i) => {
        const data = this.stored(row.id, i);
        if (!data) throw new BrokenPartError('missing');
        return data;
      });
    const stored = parts.reduce((n, part) => n + part.length, 0);
    this.delete(row.id);
    this.rows.remove(row.id);
    const id = this.rows.insertPacked(row, { codec: next.codec, baseId: next.baseId, depth: next.depth, stored });
    this.write(id, parts);
    this.rows.rebase(row.id, id);
    return id;
  }

  /**
   * Inside a transaction: a content compression does not shrink, marked packed as it is. A
   * small one is moved like an encoded one (`replace`), for the same dense pages; a larger one
   * stays where it is, under its id.
   */
  keepRaw(row: StoredContent): void {
    if (row.size <= MOVE_RAW_LIMIT) {
      this.replace(row, { codec: row.codec, baseId: null, depth: 0, parts: null });
      return;
    }
    this.rows.markPackedAlone(row.id);
  }

  /** Contents stored as deltas against `id`. */
  dependants(id: number): StoredContent[] {
    return this.rows.dependants(id);
  }

  /**
   * Inside a transaction: the content's parts written back raw (decoded through its chain), as
   * captured, for the packer to encode again: what a base's removal does to its dependants.
   * Part by part, so a large content is never whole in memory. One that cannot be decoded any
   * more stays as it is, without its base: it reads as UNRESTORABLE, as it did before.
   */
  unpack(row: StoredContent): void {
    let bytes = 0;
    try {
      for (let i = 0; i < row.parts; i++) {
        const raw = this.decoded(row, i);
        this.rows.writeParts(row.id, [raw], i);
        bytes += raw.length;
      }
    } catch (e) {
      if (!(e instanceof BrokenPartError)) throw e;
      this.rows.dropBase(row.id);
      return;
    }
    this.rows.markRaw(row.id, bytes);
  }
}
