// The `contents` table (a row per kept content: its hash, size, codec, and for a delta its
// base and depth) and `content_parts` (its bytes, in parts). A content staged part by part has
// no hash until the transaction that needs it names it. The content store (content/) encodes,
// decodes and verifies; this is where its rows are read and written. A hash is kept as its 32
// bytes (schema 11) and answered as the hex the rest of the engine uses.
import type { Codec } from '../content/codecs.js';
import { hashBytes, hashHex } from './hash-bytes.js';
import { PARTS_PER_CONTENT } from './part-ids.js';
import { REFERENCE_PREFIX } from './reference-prefixes.js';
import type { Statements } from './statements.js';

export { PARTS_PER_CONTENT };

export interface StoredContent {
  id: number;
  hash: string;
  size: number;
  codec: Codec;
  parts: number;
  /** The content a delta is encoded against. */
  baseId: number | null;
  depth: number;
  /** Whether the packer has looked at it (raw contents wait for it). */
  packed: boolean;
}

interface ContentColumns {
  id: number;
  /** Text only for a hash kept from before schema 11 that was not a sha256's hex. */
  hash: Buffer | string | null;
  size: number;
  codec: Codec;
  parts: number;
  base_id: number | null;
  depth: number;
  packed: number;
}

const COLUMNS = 'id, hash, size, codec, parts, base_id, depth, packed';
/** The key a content is written under: a hash that is not a sha256's hex is a caller's bug. */
function writeKey(hash: string): Buffer {
  const key = hashBytes(hash);
  if (!key) throw new Error(`a content's hash must be a sha256 in hex, not ${JSON.stringify(hash)}`);
  return key;
}

/** Null only for a staged content's row, which no caller reads as a named one. */
const hexOf = (hash: Buffer | string | null) => hashHex(hash) as string;

function toContent(row: ContentColumns | undefined): StoredContent | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    hash: hexOf(row.hash),
    size: row.size,
    codec: row.codec,
    parts: row.parts,
    baseId: row.base_id,
    depth: row.depth,
    packed: row.packed !== 0,
  };
}

export class ContentRows {
  constructor(private readonly store: Statements) {}

  has(hash: string): boolean {
    const key = hashBytes(hash);
    return key !== null && this.store.st('SELECT 1 FROM contents WHERE hash = ?').get(key) !== undefined;
  }

  /** Which of these contents are stored, in one query (a rollback looks for every content it restores). */
  present(hashes: string[]): Set<string> {
    const rows = this.store
      .st(
        'SELECT lower(hex(hash)) AS hash FROM contents WHERE hash IN (SELECT unhex(value) FROM json_each(?) WHERE length(value) = 64)',
      )
      .all(JSON.stringify(hashes)) as { hash: string }[];
    return new Set(rows.map((r) => r.hash));
  }

  byHash(hash: string): StoredContent | undefined {
    const key = hashBytes(hash);
    if (!key) return undefined;
    return toContent(this.store.st(`SELECT ${COLUMNS} FROM contents WHERE hash = ?`).get(key) as ContentColumns);
  }

  byId(id: number): StoredContent | undefined {
    return toContent(this.store.st(`SELECT ${COLUMNS} FROM contents WHERE id = ?`).get(id) as ContentColumns);
  }

  /** Contents stored as deltas against `id`. */
  dependants(id: number): StoredContent[] {
    return (this.store.st(`SELECT ${COLUMNS} FROM contents WHERE base_id = ?`).all(id) as ContentColumns[]).map((row) =>
      toContent(row)!,
    );
  }

  /** Up to `limit` named contents the packer has not looked at, oldest first. */
  unpacked(limit: number): StoredContent[] {
    return (
      this.store
        .st(`SELECT ${COLUMNS} FROM contents WHERE packed = 0 AND hash IS NOT NULL ORDER BY id LIMIT ?`)
        .all(limit) as ContentColumns[]
    ).map((row) => toContent(row)!);
  }

  /** The stored (encoded) bytes of a part. */
  part(id: number, index: number): Buffer | undefined {
    return (
      this.store.st('SELECT data FROM content_parts WHERE id = ?').get(id * PARTS_PER_CONTENT + index) as
        { data: Buffer } | undefined
    )?.data;
  }

  writeParts(id: number, parts: Iterable<Buffer>, from = 0): void {
    const insert = this.store.st('INSERT OR REPLACE INTO content_parts (id, data) VALUES (?, ?)');
    let index = from;
    for (const data of parts) insert.run(id * PARTS_PER_CONTENT + index++, data);
  }

  deleteParts(id: number): void {
    this.store
      .st('DELETE FROM content_parts WHERE id >= ? AND id < ?')
      .run(id * PARTS_PER_CONTENT, (id + 1) * PARTS_PER_CONTENT);
  }

  /** A raw content's row under its hash (its parts are written by `writeParts`); answers its id. */
  insertRaw(hash: string, size: number, parts: number, stored: number): number {
    return Number(
      this.store
        .st("INSERT INTO contents (hash, size, codec, parts, stored) VALUES (?, ?, 'raw', ?, ?)")
        .run(writeKey(hash), size, parts, stored).lastInsertRowid,
    );
  }

  /** A packed content's row, under a fresh id; answers it. */
  insertPacked(
    from: StoredContent,
    next: { codec: Codec; baseId: number | null; depth: number; stored: number },
  ): number {
    return Number(
      this.store
        .st(
          `INSERT INTO contents (hash, size, codec, parts, stored, packed, base_id, depth)
      VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
        )
        .run(writeKey(from.hash), from.size, next.codec, from.parts, next.stored, next.baseId, next.depth)
        .lastInsertRowid,
    );
  }

  /** Deltas against `from` are deltas against `to` (the same bytes under a new id). */
  rebase(from: number, to: number): void {
    this.store.st('UPDATE contents SET base_id = ? WHERE base_id = ?').run(to, from);
  }

  remove(id: number): void {
    this.store.st('DELETE FROM contents WHERE id = ?').run(id);
  }

  /** The packer has looked at it: it stays as it is (raw or not), without a base. */
  markPackedAlone(id: number): void {
    this.store.st('UPDATE contents SET packed = 1, base_id = NULL, depth = 0 WHERE id = ?').run(id);
  }

  /** The packer has looked at it and leaves it as it is (a round that failed on it). */
  markPacked(id: number): void {
    this.store.st('UPDATE contents SET packed = 1 WHERE id = ? AND packed = 0').run(id);
  }

  /** A content that could not be decoded any more: kept as it is, without its base. */
  dropBase(id: number): void {
    this.store.st('UPDATE contents SET base_id = NULL, packed = 1 WHERE id = ?').run(id);
  }

  /** Its parts were written back raw (`writeParts`): raw again, for the packer. */
  markRaw(id: number, stored: number): void {
    this.store
      .st("UPDATE contents SET codec = 'raw', base_id = NULL, depth = 0, stored = ?, packed = 0 WHERE id = ?")
      .run(stored, id);
  }

  // ---- staged contents: parts written under no name ----

  beginStaged(): number {
    return Number(
      this.store.st("INSERT INTO contents (hash, size, codec, parts, stored) VALUES (NULL, 0, 'raw', 0, 0)").run()
        .lastInsertRowid,
    );
  }

  appendStaged(id: number, index: number, data: Buffer): void {
    this.writeParts(id, [data], index);
    this.store
      .st('UPDATE contents SET size = size + ?, parts = ?, stored = stored + ? WHERE id = ?')
      .run(data.length, index + 1, data.length, id);
  }

  dropStaged(id: number): void {
    this.deleteParts(id);
    this.store.st('DELETE FROM contents WHERE id = ? AND hash IS NULL').run(id);
  }

  nameStaged(id: number, hash: string): void {
    this.store.st('UPDATE contents SET hash = ? WHERE id = ? AND hash IS NULL').run(writeKey(hash), id);
  }

  /** Staged rows a crash left behind (never committed under a name). */
  stagedIds(): number[] {
    return (this.store.st('SELECT id FROM contents WHERE hash IS NULL').all() as { id: number }[]).map((r) => r.id);
  }

  /**
   * Stored contents nothing needs: no turn references them and the workspace index does not
   * name them. The index's hashes are read once into a temporary index (NOT IN), not looked
   * up per content: ws_index keeps no index by hash, which every scan would pay for.
   */
  unreferenced(): string[] {
    return (
      this.store
        .st(
          `SELECT hash FROM contents c WHERE hash IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM blob_refs r WHERE r.hash_prefix = substr(c.hash, 1, ${REFERENCE_PREFIX}))
      AND hash NOT IN (SELECT hash FROM ws_index WHERE hash IS NOT NULL)`,
        )
        .all() as { hash: Buffer | string }[]
    ).map((r) => hexOf(r.hash));
  }

  stats(): { blobs: number; bytes: number; storedBytes: number } {
    const row = this.store
      .st(
        'SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM(stored), 0) AS stored FROM contents WHERE hash IS NOT NULL',
      )
      .get() as { n: number; bytes: number; stored: number };
    return { blobs: row.n, bytes: row.bytes, storedBytes: row.stored };
  }
}
