// Schema 13 → 14: the workspace index keeps a file's hash as its 32 bytes, not 64 hex
// characters, in its rows and in its index by hash (a row and an index cell per tracked file:
// 0.6 MiB on a 10,000-file tree). Rebuilt in uri order; a hash that is not a sha256's hex
// (no scan writes one) stays the text it was. Runs inside the migration's transaction: the
// store is wholly in one form or the other.
export const BINARY_INDEX_HASHES = `
  CREATE TABLE ws_index_binary (
    uri TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    ctime_ms REAL NOT NULL,
    ino INTEGER NOT NULL,
    mode INTEGER NOT NULL,
    hash BLOB,
    target TEXT,
    skipped TEXT,
    seen_ms REAL NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO ws_index_binary (uri, type, size, mtime_ms, ctime_ms, ino, mode, hash, target, skipped, seen_ms)
    SELECT uri, type, size, mtime_ms, ctime_ms, ino, mode,
      CASE WHEN length(hash) = 64 AND unhex(hash) IS NOT NULL THEN unhex(hash) ELSE hash END,
      target, skipped, seen_ms
    FROM ws_index ORDER BY uri;
  DROP TABLE ws_index;
  ALTER TABLE ws_index_binary RENAME TO ws_index;
  CREATE INDEX ws_index_by_hash ON ws_index(hash) WHERE hash IS NOT NULL;
`;
