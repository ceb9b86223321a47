// Schema 11 → 12: a content reference (`blob_refs`) names its content by the first
// REFERENCE_PREFIX bytes of its hash, not all 32. A reference is only ever asked "might this
// content be needed?" (the sweep of unreferenced contents) and "which turns saw it?" (where the
// packer looks for a delta's base, a hint it checks): two contents sharing a prefix can only
// keep one that is not needed a while longer, or suggest a base that is then found not to be
// near. Each reference is in the table and in its by-turn index, so it costs half as much.
// Runs inside the migration's transaction: the store is wholly in one form or the other.
export const REFERENCE_PREFIX = 8;

export const REFERENCE_PREFIXES = `
  CREATE TABLE blob_refs_short (
    hash_prefix BLOB NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (hash_prefix, turn)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO blob_refs_short (hash_prefix, turn)
    SELECT substr(hash, 1, ${REFERENCE_PREFIX}), turn FROM blob_refs ORDER BY 1, 2;
  DROP TABLE blob_refs;
  ALTER TABLE blob_refs_short RENAME TO blob_refs;
  CREATE INDEX blob_refs_by_turn ON blob_refs(turn);
`;
