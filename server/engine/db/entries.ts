// A turn's `entries` (what each operation found before it ran, and after the commit) and its
// `changes` (the per-path summary its commit wrote), with the content references (`blob_refs`)
// that keep the contents they name. States and changes are kept compact (record-codec.ts:
// a few bytes each, hashes as their 32 bytes), references by the hash's first bytes
// (reference-prefixes.ts); the records this repository answers carry hex hashes, as the rest
// of the engine has them.
import type { EntryOp, FileChange, SkipReason, State } from '../../protocol.js';
import { packChangeOf, packStateOf, readChange, readState } from './record-codec.js';
import { hashBytes } from './hash-bytes.js';
import { REFERENCE_PREFIX } from './reference-prefixes.js';
import type { Statements } from './statements.js';

export interface StoredEntry {
  turnId: string;
  seq: number;
  op: EntryOp;
  uri: string;
  /** A rename's or move's destination. */
  toUri: string | null;
  before: State;
  /** Null until the turn's commit reads it. */
  after: State;
  toBefore: State;
  toAfter: State;
  skipped: SkipReason | null;
  toSkipped: SkipReason | null;
  execId: string | null;
  /** The host's step (tool call) and its chat line, when the host named one. */
  stepId: string | null;
  stepTitle: string | null;
}

/** What a reference keeps of a content's hash; null for what is no sha256, which names no content. */
function prefixOf(hash: string): Buffer | null {
  return hashBytes(hash)?.subarray(0, REFERENCE_PREFIX) ?? null;
}

/** A turn's integer key (turns.id), which these tables name it by, from its id. */
const TURN = '(SELECT id FROM turns WHERE turn_id = ?)';

interface EntryColumns {
  seq: number;
  op: EntryOp;
  uri: string;
  to_uri: string | null;
  before: Buffer | null;
  after: Buffer | null;
  to_before: Buffer | null;
  to_after: Buffer | null;
  skipped: SkipReason | null;
  to_skipped: SkipReason | null;
  exec_id: string | null;
  step_id: string | null;
  step_title: string | null;
}

function parseState(data: Buffer | null): State {
  return readState(data) as State;
}

function toEntry(turnId: string, row: EntryColumns): StoredEntry {
  return {
    turnId,
    seq: row.seq,
    op: row.op,
    uri: row.uri,
    toUri: row.to_uri,
    before: parseState(row.before),
    after: parseState(row.after),
    toBefore: parseState(row.to_before),
    toAfter: parseState(row.to_after),
    skipped: row.skipped,
    toSkipped: row.to_skipped,
    execId: row.exec_id,
    stepId: row.step_id,
    stepTitle: row.step_title,
  };
}

/** A change as its row keeps it (its uri in a column of its own). */
export function parseChange(data: Buffer, uri: string): FileChange {
  return readChange(data, uri) as FileChange;
}

export class Entries {
  constructor(private readonly store: Statements) {}

  insert(entry: StoredEntry): void {
    this.store
      .st(
        `INSERT INTO entries (turn, seq, op, uri, to_uri, before, after, to_before, to_after, skipped, to_skipped, exec_id, step_id, step_title)
      VALUES (${TURN}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.turnId,
        entry.seq,
        entry.op,
        entry.uri,
        entry.toUri,
        packStateOf(entry.before),
        packStateOf(entry.after),
        packStateOf(entry.toBefore),
        packStateOf(entry.toAfter),
        entry.skipped,
        entry.toSkipped,
        entry.execId,
        entry.stepId,
        entry.stepTitle,
      );
  }

  of(turnId: string): StoredEntry[] {
    return (this.store.st(`SELECT * FROM entries WHERE turn = ${TURN} ORDER BY seq`).all(turnId) as EntryColumns[]).map(
      (row) => toEntry(turnId, row),
    );
  }

  /** The turn's renames and moves, as their two ends only (a rollback's links: no state parsed). */
  movesOf(turnId: string): { from: string; to: string }[] {
    return this.store
      .st(
        `SELECT uri AS "from", to_uri AS "to" FROM entries WHERE turn = ${TURN} AND op IN ('rename', 'move') AND to_uri IS NOT NULL ORDER BY seq`,
      )
      .all(turnId) as { from: string; to: string }[];
  }

  maxSeq(turnId: string): number {
    return (
      this.store.st(`SELECT COALESCE(MAX(seq), 0) AS n FROM entries WHERE turn = ${TURN}`).get(turnId) as { n: number }
    ).n;
  }

  /** The commit's half of an entry: its after-states (the destination's only for a rename or move). */
  setAfter(turnId: string, seq: number, after: State, toAfter: State | null): void {
    this.store
      .st(`UPDATE entries SET after = ?, to_after = ? WHERE turn = ${TURN} AND seq = ?`)
      .run(packStateOf(after), packStateOf(toAfter ?? null), turnId, seq);
  }

  remove(turnId: string, seq: number): void {
    this.store.st(`DELETE FROM entries WHERE turn = ${TURN} AND seq = ?`).run(turnId, seq);
  }

  replaceChanges(turnId: string, changes: FileChange[]): void {
    this.store.st(`DELETE FROM changes WHERE turn = ${TURN}`).run(turnId);
    const insert = this.store.st(`INSERT INTO changes (turn, ord, uri, data) VALUES (${TURN}, ?, ?, ?)`);
    changes.forEach((c, i) => insert.run(turnId, i, c.uri, packChangeOf(c, c.uri)));
  }

  changesOf(turnId: string): FileChange[] {
    return (
      this.store.st(`SELECT uri, data FROM changes WHERE turn = ${TURN} ORDER BY ord`).all(turnId) as {
        uri: string;
        data: Buffer;
      }[]
    ).map((row) => parseChange(row.data, row.uri));
  }

  /** One path's change in the turn: a diff reads it without parsing the turn's other changes. */
  changeOf(turnId: string, uri: string): FileChange | undefined {
    const row = this.store.st(`SELECT data FROM changes WHERE turn = ${TURN} AND uri = ?`).get(turnId, uri) as
      { data: Buffer } | undefined;
    return row ? parseChange(row.data, uri) : undefined;
  }

  /**
   * The first `limit` files (folders left out) among the turn's changes that `accept` takes, in
   * change order: a turn's preview, read from its changes instead of being kept a second time
   * (schema 13). Reads no further than it needs, however many paths the turn changed.
   */
  previewOf(turnId: string, accept: (uri: string) => boolean, limit: number): string[] {
    const out: string[] = [];
    if (limit <= 0) return out;
    const rows = this.store
      .st(`SELECT uri, data FROM changes WHERE turn = ${TURN} ORDER BY ord`)
      .iterate(turnId) as IterableIterator<{ uri: string; data: Buffer }>;
    for (const row of rows) {
      if (!accept(row.uri)) continue;
      const change = parseChange(row.data, row.uri);
      if (change.before?.type === 'dir' || change.after?.type === 'dir') continue;
      out.push(row.uri);
      if (out.length >= limit) break;
    }
    return out;
  }

  addRef(hash: string, turnId: string): void {
    const prefix = prefixOf(hash);
    if (!prefix) return;
    this.store.st(`INSERT OR IGNORE INTO blob_refs (hash_prefix, turn) VALUES (?, ${TURN})`).run(prefix, turnId);
  }

  clearRefs(turnId: string): void {
    this.store.st(`DELETE FROM blob_refs WHERE turn = ${TURN}`).run(turnId);
  }

  /** Up to `limit` turns that reference the content (or, rarely, another with the same prefix). */
  turnsReferring(hash: string, limit: number): string[] {
    const prefix = prefixOf(hash);
    if (!prefix) return [];
    return (
      this.store
        .st('SELECT t.turn_id FROM blob_refs r JOIN turns t ON t.id = r.turn WHERE r.hash_prefix = ? LIMIT ?')
        .all(prefix, limit) as {
        turn_id: string;
      }[]
    ).map((r) => r.turn_id);
  }

  /** Drops what the turn recorded: entries, changes, content references. */
  removeTurn(turnId: string): void {
    this.store.st(`DELETE FROM entries WHERE turn = ${TURN}`).run(turnId);
    this.store.st(`DELETE FROM changes WHERE turn = ${TURN}`).run(turnId);
    this.store.st(`DELETE FROM blob_refs WHERE turn = ${TURN}`).run(turnId);
  }
}
