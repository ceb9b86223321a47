// Stores from before schema 4 kept contents as deflated files (`blobs/ab/cdef…`) and contents
// not yet written as files in `pending_contents`. The migration takes both into the content
// tables as they are (the files' bytes are already raw deflate) in its one transaction; the
// old folder is removed only once that transaction has committed.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { PARTS_PER_CONTENT } from './part-ids.js';

export function importBlobFiles(db: Database.Database, storeDir: string): void {
  const insertContent = db.prepare(
    'INSERT INTO contents (hash, size, codec, parts, stored, packed) VALUES (?, ?, ?, 1, ?, ?)',
  );
  const insertPart = db.prepare('INSERT INTO content_parts (id, data) VALUES (?, ?)');
  const insert = (hash: string, size: number, codec: string, data: Buffer) => {
    const id = Number(insertContent.run(hash, size, codec, data.length, codec === 'raw' ? 0 : 1).lastInsertRowid);
    insertPart.run(id * PARTS_PER_CONTENT, data);
  };
  const dir = path.join(storeDir, 'blobs');
  const known = new Set<string>();
  for (const { hash, size } of db.prepare('SELECT hash, size FROM blobs').all() as { hash: string; size: number }[]) {
    const file = path.join(dir, hash.slice(0, 2), hash.slice(2));
    if (!existsSync(file)) continue;
    insert(hash, size, 'deflate', readFileSync(file));
    known.add(hash);
  }
  for (const { hash, data } of db.prepare('SELECT hash, data FROM pending_contents').all() as {
    hash: string;
    data: Buffer;
  }[]) {
    if (!known.has(hash)) insert(hash, data.length, 'raw', data);
  }
  db.exec('DROP TABLE blobs; DROP TABLE pending_contents;');
}

/** The old blob folder, once its contents are in SQLite (at every open: a crash may have left it). */
export function removeLegacyBlobDir(storeDir: string): void {
  const dir = path.join(storeDir, 'blobs');
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
