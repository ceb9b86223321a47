// Schema 9 → 10: entries, per-path changes and content references in their compact form
// (record-codec.ts): states and changes as a few bytes with binary hashes, references by the
// hash's 32 bytes, each naming its turn by the turn's integer key (turns.id, which keeps the
// rowid each turn had) instead of its 24-character id, and the rows keyed by (turn, position)
// without a separate rowid and index. Rows of a turn that no longer exists are left behind.
// Runs inside the migration's transaction: a store is either wholly in the old form or wholly
// in the new one, whatever stops the process meanwhile.
import type Database from 'better-sqlite3';
import { packChange, packState } from './record-codec.js';

interface OldEntry {
  turn_id: string;
  seq: number;
  op: string;
  uri: string;
  to_uri: string | null;
  before: string | null;
  after: string | null;
  to_before: string | null;
  to_after: string | null;
  skipped: string | null;
  to_skipped: string | null;
  exec_id: string | null;
  step_id: string | null;
  step_title: string | null;
}

export const COMPACT_RECORD_TABLES = `
  CREATE TABLE turns_compact (
    id INTEGER PRIMARY KEY,
    turn_id TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    kind TEXT NOT NULL,
    rollback_of TEXT,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    rolled_back_by TEXT,
    interrupted INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    counts TEXT NOT NULL DEFAULT '{}',
    preview TEXT NOT NULL DEFAULT '[]',
    undo TEXT,
    pinned INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO turns_compact (id, turn_id, session_id, number, kind, rollback_of, title, status, rolled_back_by,
    interrupted, started_at, ended_at, counts, preview, undo, pinned)
    SELECT rowid, turn_id, session_id, number, kind, rollback_of, title, status, rolled_back_by,
    interrupted, started_at, ended_at, counts, preview, undo, pinned FROM turns ORDER BY rowid;
  CREATE TABLE entries_compact (
    turn INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    op TEXT NOT NULL,
    uri TEXT NOT NULL,
    to_uri TEXT,
    before BLOB,
    after BLOB,
    to_before BLOB,
    to_after BLOB,
    skipped TEXT,
    to_skipped TEXT,
    exec_id TEXT,
    step_id TEXT,
    step_title TEXT,
    PRIMARY KEY (turn, seq)
  ) WITHOUT ROWID;
  CREATE TABLE changes_compact (
    turn INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    uri TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (turn, ord)
  ) WITHOUT ROWID;
  CREATE TABLE blob_refs_compact (
    hash BLOB NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (hash, turn)
  ) WITHOUT ROWID;
`;

export function compactRecords(db: Database.Database): void {
  const insertEntry = db.prepare(
    `INSERT INTO entries_compact (turn, seq, op, uri, to_uri, before, after, to_before, to_after, skipped, to_skipped, exec_id, step_id, step_title)
    SELECT id, @seq, @op, @uri, @to_uri, @before, @after, @to_before, @to_after, @skipped, @to_skipped, @exec_id, @step_id, @step_title
    FROM turns_compact WHERE turn_id = @turn_id`,
  );
  for (const e of inBatches<OldEntry>(db, 'entries', '*'))
    insertEntry.run({
      ...pick(e),
      before: packState(e.before),
      after: packState(e.after),
      to_before: packState(e.to_before),
      to_after: packState(e.to_after),
    });
  const insertChange = db.prepare(
    'INSERT INTO changes_compact (turn, ord, uri, data) SELECT id, ?, ?, ? FROM turns_compact WHERE turn_id = ?',
  );
  for (const c of inBatches<{ turn_id: string; ord: number; uri: string; data: string }>(
    db,
    'changes',
    'turn_id, ord, uri, data',
  ))
    insertChange.run(c.ord, c.uri, packChange(c.data, c.uri), c.turn_id);
  // A reference that is not a sha256 names no content (every stored one is): nothing to keep.
  db.exec(`
    INSERT OR IGNORE INTO blob_refs_compact (hash, turn)
      SELECT unhex(r.hash), t.id FROM blob_refs r JOIN turns_compact t ON t.turn_id = r.turn_id
      WHERE length(r.hash) = 64 AND unhex(r.hash) IS NOT NULL;
    DROP TABLE entries;
    DROP TABLE changes;
    DROP TABLE blob_refs;
    DROP TABLE turns;
    ALTER TABLE turns_compact RENAME TO turns;
    ALTER TABLE entries_compact RENAME TO entries;
    ALTER TABLE changes_compact RENAME TO changes;
    ALTER TABLE blob_refs_compact RENAME TO blob_refs;
    CREATE UNIQUE INDEX turns_by_session_number ON turns(session_id, number);
    CREATE INDEX turns_by_status ON turns(status);
    CREATE INDEX blob_refs_by_turn ON blob_refs(turn);
  `);
}

/** A table's rows by rowid, a thousand at a time (a statement cannot write while another still reads). */
function* inBatches<T>(db: Database.Database, table: string, columns: string): Generator<T> {
  const page = db.prepare(`SELECT id AS rowid_, ${columns} FROM ${table} WHERE id > ? ORDER BY id LIMIT 1000`);
  for (let after = 0; ;) {
    const rows = page.all(after) as (T & { rowid_: number })[];
    if (rows.length === 0) return;
    after = rows[rows.length - 1].rowid_;
    for (const { rowid_: _, ...row } of rows) yield row as T;
  }
}

/** The columns an entry keeps as they are. */
function pick(e: OldEntry): Omit<OldEntry, 'before' | 'after' | 'to_before' | 'to_after'> {
  const { before: _b, after: _a, to_before: _tb, to_after: _ta, ...rest } = e;
  return rest;
}
