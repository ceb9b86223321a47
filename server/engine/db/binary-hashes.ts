// Schema 10 → 11: a content's hash kept as its 32 bytes in `contents`, not as 64 hex
// characters: half of every row and of every cell of the unique index on it (bench item 10's
// history: 104 + 68 KiB for 827 contents, most of it hex). The table is rebuilt in id order,
// so its pages are dense; `content_parts`, keyed by the content's id, is not touched. A hash
// that is not a sha256's hex (no content the store writes has one) is kept as the text it was.
// Runs inside the migration's transaction: the store is wholly in one form or the other.
export const BINARY_CONTENT_HASHES = `
  CREATE TABLE contents_binary (
    id INTEGER PRIMARY KEY,
    hash BLOB UNIQUE,
    size INTEGER NOT NULL,
    codec TEXT NOT NULL,
    parts INTEGER NOT NULL,
    stored INTEGER NOT NULL,
    packed INTEGER NOT NULL DEFAULT 0,
    base_id INTEGER,
    depth INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO contents_binary (id, hash, size, codec, parts, stored, packed, base_id, depth)
    SELECT id,
      CASE WHEN length(hash) = 64 AND unhex(hash) IS NOT NULL THEN unhex(hash) ELSE hash END,
      size, codec, parts, stored, packed, base_id, depth
    FROM contents ORDER BY id;
  DROP TABLE contents;
  ALTER TABLE contents_binary RENAME TO contents;
  CREATE INDEX contents_to_pack ON contents(packed) WHERE packed = 0;
  CREATE INDEX contents_by_base ON contents(base_id) WHERE base_id IS NOT NULL;
`;
