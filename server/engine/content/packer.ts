// The packer: re-encodes contents captured raw, off the agent's path. A content with a nearer
// version of its path in the store becomes a delta against it (zstd, the base as dictionary);
// one without, or whose delta does not pay, becomes a keyframe (brotli); one that compression
// does not shrink stays raw. Chains stay bounded (delta-chains.ts), so a read decodes a bounded
// number of bytes. Every encoding is decoded back and compared before it is kept. The contents
// of a round are replaced together, in one transaction (each only if it and its base are still
// there as they were): one commit per content wrote 850 KiB to the WAL for item 15's 10-file
// turn on W2, which its checkpoint then copied again.
import { compresses, decodePart, deltasAvailable, encodeDelta, encodeWhole } from './codecs.js';
import { BrokenPartError, type ContentParts, type StoredContent } from './content-parts.js';
import { TurnMemo, baseCandidates } from './delta-bases.js';
import { baseWithin } from './delta-chains.js';
import type { Store } from '../db/store.js';

/** A delta larger than this share of the raw content is compared with a keyframe. */
const DELTA_WORTH = 0.5;
/** Compression must save at least a tenth, or the content stays raw. */
const WHOLE_WORTH = 0.9;
/** Raw parts of recently packed contents, by hash: the next version's base, without decoding its chain. */
const RECENT_BYTES = 16 << 20;
/** Encoded bytes a round holds before it commits what it has (a round is at most PACK_ROUND contents). */
const BATCH_BYTES = 8 << 20;

interface Encoded {
  codec: 'brotli' | 'zstd-delta';
  parts: Buffer[];
  bytes: number;
  base: StoredContent | null;
}

/** A content of the round, encoded and not yet committed: `keep` null stays raw; `failed`, a codec failed on it. */
interface Pending {
  row: StoredContent;
  keep: Encoded | null;
  failed: boolean;
}

/** A round: its contents not yet committed, by hash, and the failure to report once it is done. */
interface Round {
  pending: Map<string, Pending>;
  failure: unknown;
}

export class Packer {
  private readonly recent = new Map<string, Buffer[]>();
  private recentBytes = 0;
  /** Turns' entries read for base lookups, kept from pass to pass (delta-bases.ts). */
  private readonly memo: TurnMemo;

  constructor(
    private readonly store: Store,
    private readonly parts: ContentParts,
  ) {
    this.memo = new TurnMemo(store);
  }

  /**
   * Packs up to `limit` raw contents; answers how many it looked at. `before` is awaited before
   * each content, the caller's chance to wait for the agent (a row gone or packed meanwhile is
   * left as it is); when it answers false, the round stops there.
   */
  async pack(limit: number, before?: () => Promise<boolean>): Promise<number> {
    const rows = this.store.contents.unpacked(limit);
    this.memo.nextPass();
    // Nothing left to pack: the turns kept for a next pass go down to what an idle memo keeps.
    if (rows.length === 0) this.memo.nextPass();
    const round: Round = { pending: new Map(), failure: null };
    try {
      for (const listed of rows) {
        let row = listed;
        if (before) {
          if (!(await before())) break;
          const now = this.parts.byHash(listed.hash);
          if (!now || now.packed) continue;
          row = now;
        }
        try {
          const encoded = await this.encode(row, this.chooseBase(row, round));
          const keep = encoded && encoded.bytes < row.size * WHOLE_WORTH ? encoded : null;
          round.pending.set(row.hash, { row, keep, failed: false });
        } catch (e) {
          // A damaged content stays as it is (reads report it); one a codec failed on stays raw,
          // which is always right, and the failure is reported once the round is done.
          if (!(e instanceof BrokenPartError)) round.failure = e;
          round.pending.set(row.hash, { row, keep: null, failed: true });
        }
        let held = 0;
        for (const p of round.pending.values()) held += p.keep?.bytes ?? 0;
        if (held >= BATCH_BYTES) await this.commitWhenFree(round, before);
      }
      await this.commitWhenFree(round, before);
    } finally {
      this.commit(round);
    }
    if (round.failure) throw round.failure;
    return rows.length;
  }

  /**
   * The round's contents committed once `before` lets packing go on: a request that came while
   * the round's last content was encoded does not share its time with the round's commit either.
   * Closed meanwhile (`before` answers false), it commits all the same: the work is done.
   */
  private async commitWhenFree(round: Round, before?: () => Promise<boolean>): Promise<void> {
    if (round.pending.size === 0) return;
    if (before) await before();
    this.commit(round);
  }

  /**
   * The round's contents replaced by their encodings, in one transaction; should it fail, each
   * in one of its own, so one content cannot keep the others raw; a failure is the round's to report.
   */
  private commit(round: Round): void {
    const pending = [...round.pending.values()];
    round.pending.clear();
    if (pending.length === 0) return;
    try {
      this.store.relaxed(() => {
        for (const p of pending) this.replace(p);
      });
    } catch {
      for (const p of pending) {
        try {
          this.store.relaxed(() => this.replace(p));
        } catch (e) {
          round.failure ??= e;
          this.store.relaxed(() => this.store.contents.markPacked(p.row.id));
        }
      }
    }
  }

  /** Inside a transaction: one content replaced by its encoding, if it and its base are still there as they were. */
  private replace({ row, keep, failed }: Pending): void {
    if (failed) {
      this.store.contents.markPacked(row.id);
      return;
    }
    const now = this.parts.byHash(row.hash);
    if (!now || now.packed || now.codec !== row.codec) return;
    const base = keep?.base ? this.parts.byHash(keep.base.hash) : null;
    if (keep?.base && !base) return; // removed meanwhile: packed again next round
    if (keep)
      this.parts.replace(now, {
        codec: keep.codec,
        baseId: base?.id ?? null,
        depth: base ? base.depth + 1 : 0,
        parts: keep.parts,
      });
    else this.parts.keepRaw(now);
  }

  /**
   * Part by part, so only the encoded parts are held: the first part decides between delta and
   * keyframe (for a content of one part, the usual case, that is the whole decision). Null: the
   * content stays raw (a keyframe's part does not compress, and no delta was found for it).
   */
  private async encode(row: StoredContent, base: StoredContent | null): Promise<Encoded | null> {
    const out: Encoded = { codec: 'brotli', parts: [], bytes: 0, base: null };
    const raw: Buffer[] = [];
    for (let i = 0; i < row.parts; i++) {
      const part = this.parts.decoded(row, i);
      let encoded: Buffer | null;
      if (i === 0) {
        const delta = base ? await this.delta(part, this.basePart(base, 0)) : null;
        const whole = !delta || delta.length > part.length * DELTA_WORTH ? await this.whole(part) : null;
        if (delta && (!whole || delta.length <= whole.length)) Object.assign(out, { codec: 'zstd-delta', base });
        encoded = out.codec === 'zstd-delta' ? delta : whole;
        if (!encoded) return null;
      } else if (out.base) {
        encoded = await this.delta(part, this.basePart(out.base, i));
        // A later part whose delta failed: the whole content becomes a keyframe instead.
        if (!encoded) return this.encode(row, null);
      } else {
        encoded = await this.whole(part);
        if (!encoded) return null;
      }
      out.parts.push(encoded);
      out.bytes += encoded.length;
      if (row.size <= RECENT_BYTES / 4) raw.push(part);
    }
    if (raw.length === row.parts) this.remember(row.hash, raw);
    return out;
  }

  /** The nearest stored version of the content's paths, or an ancestor of it, within the chain bound. */
  private chooseBase(row: StoredContent, round: Round): StoredContent | null {
    // A content others are deltas of (its base was removed) is made whole: its chain never grows back.
    if (!deltasAvailable || this.parts.dependants(row.id).length > 0) return null;
    for (const hash of baseCandidates(this.store, row.hash, this.memo)) {
      // A candidate encoded in this round is committed first: a base is always a packed content.
      if (round.pending.has(hash)) this.commit(round);
      const candidate = this.parts.byHash(hash);
      if (!candidate || !candidate.packed || candidate.id === row.id) continue;
      const base = baseWithin(this.parts, row, candidate);
      if (base) return base;
    }
    return null;
  }

  private basePart(base: StoredContent, index: number): Buffer {
    if (index >= base.parts) return Buffer.alloc(0);
    return this.recent.get(base.hash)?.[index] ?? this.parts.decoded(base, index);
  }

  /** The part against its base's part, decoded back and compared; null where zstd cannot be used. */
  private async delta(part: Buffer, dictionary: Buffer): Promise<Buffer | null> {
    const encoded = await encodeDelta(part, dictionary);
    return encoded && decodePart('zstd-delta', encoded, dictionary).equals(part) ? encoded : null;
  }

  /** The part brotli-compressed and decoded back; null when a sample says it will not shrink. */
  private async whole(part: Buffer): Promise<Buffer | null> {
    if (!compresses(part)) return null;
    const encoded = await encodeWhole(part);
    if (!decodePart('brotli', encoded).equals(part)) throw new Error('brotli did not give back what it was given');
    return encoded;
  }

  private remember(hash: string, raw: Buffer[]): void {
    const size = raw.reduce((n, p) => n + p.length, 0);
    if (size > RECENT_BYTES / 4) return;
    this.recent.delete(hash);
    this.recent.set(hash, raw);
    this.recentBytes += size;
    for (const [old, parts] of this.recent) {
      if (this.recentBytes <= RECENT_BYTES) break;
      this.recent.delete(old);
      this.recentBytes -= parts.reduce((n, p) => n + p.length, 0);
    }
  }
}
