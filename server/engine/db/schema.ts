// The SQLite schema, versioned through `PRAGMA user_version`. Each migration takes the store
// from version i to i + 1 inside one transaction; a store newer than this code is refused.
import type Database from 'better-sqlite3';
import { EngineError } from '../errors.js';
import { importBlobFiles } from './legacy-blobs.js';
import { importCommandJson } from './legacy-commands.js';
import { BINARY_CONTENT_HASHES } from './binary-hashes.js';
import { COMPACT_RECORD_TABLES, compactRecords } from './compact-records.js';
import { BINARY_INDEX_HASHES } from './index-hashes.js';
import { REFERENCE_PREFIXES } from './reference-prefixes.js';
import { DROP_TURN_PREVIEWS } from './turn-previews.js';

export class SchemaTooNewError extends EngineError {
  constructor(found: number, supported: number) {
    super(
      'SCHEMA_TOO_NEW',
      `the store's schema version ${found} is newer than this turnback supports (${supported}); upgrade turnback to open it`,
      { found, supported },
    );
  }
}

interface Migration {
  sql: string;
  /** Work SQL alone cannot do, in the same transaction. */ run?: (db: Database.Database, storeDir: string) => void;
}

const MIGRATIONS: (string | Migration)[] = [
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
  // 3 → 4: contents move into SQLite (one transaction stores a content with what needs it);
  // the workspace index the exec scans keep.
  {
    sql: `
    -- A stored content has its hash; a staged one (parts being written) has none yet.
    CREATE TABLE contents (
      id INTEGER PRIMARY KEY,
      hash TEXT UNIQUE,
      size INTEGER NOT NULL,
      codec TEXT NOT NULL,
      parts INTEGER NOT NULL,
      stored INTEGER NOT NULL,
      packed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX contents_to_pack ON contents(packed) WHERE packed = 0;
    -- Part i of content c has id c * 65536 + i.
    CREATE TABLE content_parts (
      id INTEGER PRIMARY KEY,
      data BLOB NOT NULL
    );
    -- Path → what a scan last saw there: stat fields to tell a change, and the state itself.
    CREATE TABLE ws_index (
      uri TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms REAL NOT NULL,
      ctime_ms REAL NOT NULL,
      ino INTEGER NOT NULL,
      mode INTEGER NOT NULL,
      hash TEXT,
      target TEXT,
      skipped TEXT,
      seen_ms REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX ws_index_by_hash ON ws_index(hash) WHERE hash IS NOT NULL;
    -- Facts about the store as a whole (e.g. whether the workspace index is whole).
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    -- An exec entry names the command whose scans recorded it.
    ALTER TABLE entries ADD COLUMN exec_id TEXT;
    `,
    run: importBlobFiles,
  },
  // 4 → 5: a content may be stored as a delta against another (its base), in chains of
  // bounded depth. Contents deflated whole before this are packed again, as deltas where they can be.
  `
  ALTER TABLE contents ADD COLUMN base_id INTEGER;
  -- Deltas between this content and a whole one (0 for a whole content); an upper bound.
  ALTER TABLE contents ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX contents_by_base ON contents(base_id) WHERE base_id IS NOT NULL;
  UPDATE contents SET packed = 0 WHERE codec = 'deflate';
  `,
  // 5 → 6: who a session belongs to, for retention (docs/api.md). Sessions from before are the person's.
  `
  ALTER TABLE sessions ADD COLUMN origin TEXT NOT NULL DEFAULT 'person';
  `,
  // 6 → 7: a turn's commands become rows (an exec no longer rewrites the turn's whole list), each
  // text kept up to COMMAND_TEXT_LIMIT bytes with the size it had; every command of the JSON is kept.
  {
    sql: `
    CREATE TABLE commands (
      turn_id TEXT NOT NULL,
      ord INTEGER NOT NULL,
      exec_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      command TEXT NOT NULL,
      command_bytes INTEGER NOT NULL,
      at TEXT NOT NULL,
      ended_at TEXT,
      changed TEXT,
      skipped TEXT,
      scanned INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (turn_id, ord)
    );
    CREATE UNIQUE INDEX commands_by_exec ON commands(turn_id, exec_id);
    `,
    run: (db) => {
      importCommandJson(db);
      db.exec('ALTER TABLE turns DROP COLUMN exec_commands');
    },
  },
  // 7 → 8: an entry names the host's step (tool call) it was recorded for, so one step of a
  // turn can be undone; entries of older stores have none (each is a step of its own).
  `
  ALTER TABLE entries ADD COLUMN step_id TEXT;
  ALTER TABLE entries ADD COLUMN step_title TEXT;
  `,
  // 8 → 9: a turn of kind 'pin' is a named point; retention keeps it while it is pinned.
  `
  ALTER TABLE turns ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
  `,
  // 9 → 10: entries, changes and content references in their compact form (compact-records.ts).
  { sql: COMPACT_RECORD_TABLES, run: compactRecords },
  // 10 → 11: a content's hash as its 32 bytes (binary-hashes.ts).
  BINARY_CONTENT_HASHES,
  // 11 → 12: a content reference names its content by its hash's first bytes (reference-prefixes.ts).
  REFERENCE_PREFIXES,
  // 12 → 13: a turn's preview is read from its changes (turn-previews.ts).
  DROP_TURN_PREVIEWS,
  // 13 → 14: the workspace index's hashes as their 32 bytes (index-hashes.ts).
  BINARY_INDEX_HASHES,
  // 14 → 15: the workspace index loses its index by hash. Its one reader is the search for
  // contents nothing needs (db/contents.ts `unreferenced`), which now reads the hashes once;
  // its writers were every scan, a random insert per stored file: building the index of
  // 100,000 files wrote 860 MB with it, 675 MB without (12% of the build's time).
  `
  DROP INDEX IF EXISTS ws_index_by_hash;
  `,
  // 15 → 16: the files a rollback writes over in place, named before the first byte is written,
  // so an open after a crash finishes one cut short (db/overwrites.ts).
  `
  CREATE TABLE overwrites (
    turn INTEGER NOT NULL,
    uri TEXT NOT NULL,
    before BLOB NOT NULL,
    target BLOB NOT NULL,
    PRIMARY KEY (turn, uri)
  ) WITHOUT ROWID;
  `,
  // 16 → 17: the turns of other sessions that changed files while a turn was active (Turn.concurrent).
  `
  ALTER TABLE turns ADD COLUMN concurrent TEXT;
  `,
  // 17 → 18: the same prompt's turns in other workspaces, undone with it (Turn.linked).
  `
  ALTER TABLE turns ADD COLUMN linked TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the store to `upTo` (the current version; tests build older stores with a lower one). */
export function migrate(db: Database.Database, storeDir: string, upTo = SCHEMA_VERSION): void {
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
  for (let version = found; version < upTo; version++) {
    const step = MIGRATIONS[version];
    db.transaction(() => {
      db.exec(typeof step === 'string' ? step : step.sql);
      if (typeof step !== 'string') step.run?.(db, storeDir);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
