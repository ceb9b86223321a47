// A store written at schema 10, its contents under hex hashes as that version kept them, for
// the tests of the migration to binary hashes: raw, brotli and zstd-delta contents (chains of
// versions of one text), a staged content (parts, no hash yet), and a row whose hash is not a
// sha256's hex. Half of the named contents are referenced by a turn.
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { encodeDelta, encodeWhole } from '../content/codecs.js';
import { PARTS_PER_CONTENT } from './part-ids.js';
import { migrate } from './schema.js';

export interface OldContents {
  /** Each named content's bytes, by hash. */
  bytes: Map<string, Buffer>;
  referenced: string[];
  unreferenced: string[];
  stagedId: number;
  /** The id of the row kept under a hash that is not a sha256's hex. */
  oddId: number;
}

export const ODD_HASH = 'not a sha256';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `chains` chains of `perChain` versions each: the first a keyframe (raw for chain 0), the rest deltas. */
export async function writeOldContents(file: string, chains: number, perChain = 4): Promise<OldContents> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  migrate(db, path.dirname(file), 10);
  const out: OldContents = { bytes: new Map(), referenced: [], unreferenced: [], stagedId: 0, oddId: 0 };
  const insertContent = db.prepare(
    'INSERT INTO contents (hash, size, codec, parts, stored, packed, base_id, depth) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
  );
  const insertPart = db.prepare('INSERT INTO content_parts (id, data) VALUES (?, ?)');
  const insertRef = db.prepare('INSERT INTO blob_refs (hash, turn) VALUES (unhex(?), 1)');
  const rows: { hash: string | null; size: number; codec: string; data: Buffer; base: number | null; depth: number }[] =
    [];
  for (let c = 0; c < chains; c++) {
    let previous: { bytes: Buffer; at: number } | null = null;
    for (let v = 0; v < perChain; v++) {
      const bytes = Buffer.from(`chain ${c}, version ${v}\n`.repeat(20 + v) + 'line of its own\n'.repeat(v));
      const hash = sha256(bytes);
      const delta: Buffer | null = previous ? await encodeDelta(bytes, previous.bytes) : null;
      const [codec, data] =
        previous && delta ? ['zstd-delta', delta] : c === 0 ? ['raw', bytes] : ['brotli', await encodeWhole(bytes)];
      rows.push({
        hash,
        size: bytes.length,
        codec,
        data,
        base: codec === 'zstd-delta' ? previous!.at : null,
        depth: codec === 'zstd-delta' ? v : 0,
      });
      out.bytes.set(hash, bytes);
      (rows.length % 2 ? out.referenced : out.unreferenced).push(hash);
      previous = { bytes, at: rows.length - 1 };
    }
  }
  db.transaction(() => {
    const ids: number[] = [];
    for (const row of rows) {
      const base = row.base === null ? null : ids[row.base];
      const id = Number(
        insertContent.run(row.hash, row.size, row.codec, 1, row.data.length, base, row.depth).lastInsertRowid,
      );
      insertPart.run(id * PARTS_PER_CONTENT, row.data);
      ids.push(id);
    }
    for (const hash of out.referenced) insertRef.run(hash);
    const staged = Buffer.from('a content still being written');
    out.stagedId = Number(insertContent.run(null, staged.length, 'raw', 1, staged.length, null, 0).lastInsertRowid);
    insertPart.run(out.stagedId * PARTS_PER_CONTENT, staged);
    out.oddId = Number(insertContent.run(ODD_HASH, 3, 'raw', 1, 3, null, 0).lastInsertRowid);
    insertPart.run(out.oddId * PARTS_PER_CONTENT, Buffer.from('odd'));
  })();
  db.close();
  return out;
}
