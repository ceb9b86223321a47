// The capture journal: what makes a capture durable with a single flush. A capture appends its
// entry rows, plus the raw bytes of any content not yet safe on disk, and datasyncs, while the
// workspace write's own fsync runs beside it. The SQLite rows and blob files it describes are
// written without a flush of their own. A checkpoint at each turn end flushes those (blob
// fsyncs side by side, one SQLite commit) and empties the journal; after a crash, recovery
// replays whatever the journal still holds.
import { sha256 } from './blobs.js';
import type { AppendLog, EngineFs } from './fs.js';
import type { EntryRow } from './store.js';

export type RawRow = Record<string, unknown>;

export interface JournalBlob { hash: string; size: number; data?: Buffer }

export interface JournalBatch {
  turnId: string;
  /** The turn's rows as stored (turn, session, counter), carried once per turn between checkpoints. */
  rows?: { turn?: RawRow; session?: RawRow; counter?: RawRow };
  entries: EntryRow[];
  /** Content the batch stored (with its bytes while not flushed yet). */
  blobs: JournalBlob[];
  /** Every hash the entries refer to. */
  refs: string[];
}

const PREFIX = 8;

/** `[u32 header length][u32 data length][header JSON][blob bytes…]`, little-endian. */
export function encodeBatch(batch: JournalBatch): Buffer {
  const data = batch.blobs.flatMap((b) => (b.data ? [b.data] : []));
  const header = Buffer.from(JSON.stringify({
    turnId: batch.turnId, rows: batch.rows, entries: batch.entries, refs: batch.refs,
    blobs: batch.blobs.map((b) => ({ hash: b.hash, size: b.size, length: b.data ? b.data.length : -1 })),
  }), 'utf8');
  const prefix = Buffer.alloc(PREFIX);
  prefix.writeUInt32LE(header.length, 0);
  prefix.writeUInt32LE(data.reduce((n, d) => n + d.length, 0), 4);
  return Buffer.concat([prefix, header, ...data]);
}

/**
 * The batches a journal holds. A torn tail (a crash in the middle of an append) ends the list:
 * its capture was never acknowledged, so the mutation it guarded never ran.
 */
export function decodeBatches(buf: Buffer): JournalBatch[] {
  const batches: JournalBatch[] = [];
  let pos = 0;
  while (pos + PREFIX <= buf.length) {
    const headerLength = buf.readUInt32LE(pos);
    const dataLength = buf.readUInt32LE(pos + 4);
    const end = pos + PREFIX + headerLength + dataLength;
    if (headerLength === 0 || end > buf.length) break;
    let header: Omit<JournalBatch, 'blobs'> & { blobs: { hash: string; size: number; length: number }[] };
    try {
      header = JSON.parse(buf.subarray(pos + PREFIX, pos + PREFIX + headerLength).toString('utf8'));
    } catch {
      break;
    }
    let offset = pos + PREFIX + headerLength;
    const blobs: JournalBlob[] = [];
    for (const b of header.blobs) {
      if (b.length < 0) { blobs.push({ hash: b.hash, size: b.size }); continue; }
      const data = buf.subarray(offset, offset + b.length);
      offset += b.length;
      if (sha256(data) !== b.hash) return batches;
      blobs.push({ hash: b.hash, size: b.size, data });
    }
    batches.push({ turnId: header.turnId, rows: header.rows, entries: header.entries, refs: header.refs ?? [], blobs });
    pos = end;
  }
  return batches;
}

export class CaptureJournal {
  private log: AppendLog | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private bytes = 0;
  private readonly turnsWritten = new Set<string>();
  /** Blobs written without a flush: until the next checkpoint, only the journal keeps them safe. */
  private readonly unflushed = new Set<string>();

  constructor(private readonly fs: EngineFs, readonly file: string) {}

  async open(): Promise<void> {
    this.log = await this.fs.openAppendLog(this.file);
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
    await this.log?.close();
    this.log = null;
  }

  /** Empties the journal (after recovery replayed it). */
  async clear(): Promise<void> {
    await this.exclusive(async () => { await this.log?.truncate(); this.bytes = 0; });
  }

  /** Whether a batch of this turn must carry the turn's rows (the first since a checkpoint). */
  needsRows(turnId: string): boolean {
    return !this.turnsWritten.has(turnId);
  }

  /** One after another: a checkpoint must never empty the journal under an append. */
  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once the batch is on disk. */
  append(batch: JournalBatch): Promise<void> {
    const data = encodeBatch(batch);
    return this.exclusive(async () => {
      if (!this.log) throw new Error('the capture journal is not open');
      await this.log.append(data);
      this.bytes += data.length;
      if (batch.rows) this.turnsWritten.add(batch.turnId);
      for (const b of batch.blobs) if (b.data) this.unflushed.add(b.hash);
      await this.log.datasync();
    });
  }

  /**
   * Makes what the journal guards durable by itself (`flush` syncs the blobs it is given and
   * commits SQLite fully), then empties the journal. The truncation needs no flush of its own:
   * a replay skips turns that are no longer active.
   */
  checkpoint(flush: (blobs: string[]) => Promise<void>): Promise<void> {
    return this.exclusive(async () => {
      if (this.bytes === 0 || !this.log) return;
      await flush([...this.unflushed]);
      await this.log.truncate();
      this.bytes = 0;
      this.turnsWritten.clear();
      this.unflushed.clear();
    });
  }
}
