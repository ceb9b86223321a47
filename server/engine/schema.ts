// The SQLite schema, versioned through `PRAGMA user_version`. Each migration takes the store
// from version i to i + 1 inside one transaction; a store newer than this code is refused.
import type Database from 'better-sqlite3';
import { EngineError } from './errors.js';

export class SchemaTooNewError extends EngineError {
  constructor(found: number, supported: number) {
    super('INTERNAL', `the store's schema version ${found} is newer than this turnback supports (${supported}); upgrade turnback to open it`, { found, supported });
  }
}

const MIGRATIONS: string[] = [
  // 0 → 1
  `
  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    session_type TEXT NOT NULL,
    last_activity INTEGER NOT NULL,
    active_turn_id TEXT
  );
  -- Turn numbers per session id; rows outlive their session so numbers are never reused.
  CREATE TABLE counters (
    session_id TEXT PRIMARY KEY,
    last_number INTEGER NOT NULL
  );
  CREATE TABLE turns (
    turn_id TEXT PRIMARY KEY,
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
    exec_commands TEXT NOT NULL DEFAULT '[]',
    counts TEXT NOT NULL DEFAULT '{}',
    preview TEXT NOT NULL DEFAULT '[]',
    undo TEXT
  );
  CREATE UNIQUE INDEX turns_by_session_number ON turns(session_id, number);
  CREATE INDEX turns_by_status ON turns(status);
  CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    turn_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    op TEXT NOT NULL,
    uri TEXT NOT NULL,
    to_uri TEXT,
    before TEXT,
    after TEXT,
    to_before TEXT,
    to_after TEXT,
    skipped TEXT,
    to_skipped TEXT
  );
  CREATE UNIQUE INDEX entries_by_turn ON entries(turn_id, seq);
  -- Per-path summary of a committed turn (FileChange, directories included).
  -- Rows of a few hundred bytes: plain rowid tables (WITHOUT ROWID suits small rows only).
  CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    turn_id TEXT NOT NULL,
    ord INTEGER NOT NULL,
    uri TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE UNIQUE INDEX changes_by_turn ON changes(turn_id, ord);
  CREATE TABLE messages (
    ord INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL,
    turn_id TEXT,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    ts INTEGER NOT NULL,
    deleted_by TEXT
  );
  CREATE INDEX messages_by_session ON messages(session_id, ord);
  CREATE INDEX messages_by_turn ON messages(turn_id);
  CREATE TABLE blobs (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE blob_refs (
    hash TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    PRIMARY KEY (hash, turn_id)
  ) WITHOUT ROWID;
  CREATE INDEX blob_refs_by_turn ON blob_refs(turn_id);
  `,
  // 1 → 2
  `
  -- Workspace temp files written while their capture runs: a crash before the rename leaves
  -- them behind, and this is how the next open finds them (written without fsync: a process
  -- crash keeps the row, and only a process crash can interrupt between create and rename).
  CREATE TABLE pending_temps (
    path TEXT PRIMARY KEY
  ) WITHOUT ROWID;
  `,
  // 2 → 3: captured contents committed with their entry until their blob file is flushed.
  `
  CREATE TABLE pending_contents (
    hash TEXT PRIMARY KEY,
    data BLOB NOT NULL
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
  for (let version = found; version < SCHEMA_VERSION; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
