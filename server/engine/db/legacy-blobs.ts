// Stores from before schema 4 kept contents as deflated files (`blobs/ab/cdef…`) and contents
// not yet written as files in `pending_contents`. The migration takes both into the content
// tables as they are (the files' bytes are already raw deflate) in its one transaction; the
// old folder is removed only once that transaction has committed.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

const PARTS_PER_CONTENT = 1 << 16;

function insert(db: Database.Database, hash: string, size: number, codec: string, data: Buffer): void {
  const id = Number(db.prepare('INSERT INTO contents (hash, size, codec, parts, stored, packed) VALUES (?, ?, ?, 1, ?, ?)')
    .run(hash, size, codec, data.length, codec === 'raw' ? 0 : 1).lastInsertRowid);
  db.prepare('INSERT INTO content_parts (id, data) VALUES (?, ?)').run(id * PARTS_PER_CONTENT, data);
}

export function importBlobFiles(db: Database.Database, storeDir: string): void {
  const dir = path.join(storeDir, 'blobs');
  const known = new Set<string>();
  for (const { hash, size } of db.prepare('SELECT hash, size FROM blobs').all() as { hash: string; size: number }[]) {
    const file = path.join(dir, hash.slice(0, 2), hash.slice(2));
    if (!existsSync(file)) continue;
    insert(db, hash, size, 'deflate', readFileSync(file));
    known.add(hash);
  }
  for (const { hash, data } of db.prepare('SELECT hash, data FROM pending_contents').all() as { hash: string; data: Buffer }[]) {
    if (!known.has(hash)) insert(db, hash, data.length, 'raw', data);
  }
  db.exec('DROP TABLE blobs; DROP TABLE pending_contents;');
}

/** The old blob folder, once its contents are in SQLite (at every open: a crash may have left it). */
export function removeLegacyBlobDir(storeDir: string): void {
  const dir = path.join(storeDir, 'blobs');
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
