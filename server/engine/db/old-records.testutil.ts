// A store written at schema 9, its records in the form that version wrote them (states and
// changes as JSON with hex hashes, references by hex), for the migration's tests.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import path from 'node:path';
import { migrate } from './schema.js';

export interface OldRecords {
  entries: Map<string, { seq: number; before: string | null; after: string | null }[]>;
  changes: Map<string, { ord: number; uri: string; data: string }[]>;
  refs: number;
  referenced: string[];
  unreferenced: string[];
}

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');

/**
 * `turns` turns of `perTurn` writes each; one state in ten of a form the compact one cannot
 * hold. Written at schema 9, then migrated to `version` (a later one's tests start there).
 */
export function writeOldStore(file: string, turns: number, perTurn = 3, version = 9): OldRecords {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  migrate(db, path.dirname(file), 9);
  const out: OldRecords = { entries: new Map(), changes: new Map(), refs: 0, referenced: [], unreferenced: [] };
  const insertTurn = db.prepare(
    `INSERT INTO turns (turn_id, session_id, number, kind, title, status, started_at, counts, preview)
    VALUES (?, 's', ?, 'agent', ?, 'committed', ?, '{}', '[]')`,
  );
  const insertEntry = db.prepare(
    `INSERT INTO entries (turn_id, seq, op, uri, before, after) VALUES (?, ?, 'write', ?, ?, ?)`,
  );
  const insertChange = db.prepare('INSERT INTO changes (turn_id, ord, uri, data) VALUES (?, ?, ?, ?)');
  const insertRef = db.prepare('INSERT OR IGNORE INTO blob_refs (hash, turn_id) VALUES (?, ?)');
  const insertContent = db.prepare(
    "INSERT OR IGNORE INTO contents (hash, size, codec, parts, stored, packed) VALUES (?, 10, 'raw', 0, 0, 1)",
  );
  db.transaction(() => {
    for (let t = 0; t < turns; t++) {
      const turnId = `t_${String(t).padStart(8, '0')}`;
      insertTurn.run(turnId, t + 1, `turn ${t}`, t);
      const entries: { seq: number; before: string | null; after: string | null }[] = [];
      const changes: { ord: number; uri: string; data: string }[] = [];
      for (let i = 0; i < perTurn; i++) {
        const uri = `workspace:/src/file-${(t * perTurn + i) % 97}.ts`;
        const [b, a] = [hex(`${t}/${i}/before`), hex(`${t}/${i}/after`)];
        const before =
          i % 10 === 9
            ? JSON.stringify({ type: 'file', hash: b, size: 100 + i, mode: 420, note: 'a field of its own' })
            : t % 7 === 0 && i === 0
              ? null
              : JSON.stringify({ type: 'file', hash: b, size: 100 + i, mode: 420 });
        const after =
          i === 1
            ? JSON.stringify({ type: 'symlink', target: `../x${t}` })
            : JSON.stringify({ type: 'file', hash: a, size: 200 + i, mode: 493 });
        insertEntry.run(turnId, i + 1, uri, before, after);
        entries.push({ seq: i + 1, before, after });
        const data = JSON.stringify({
          uri,
          change: before === null ? 'created' : 'modified',
          before: before === null ? null : JSON.parse(before),
          after: JSON.parse(after),
          lines: { added: i, removed: t % 5 },
        });
        insertChange.run(turnId, i, uri, data);
        changes.push({ ord: i, uri, data });
        for (const h of [before === null ? null : b, i === 1 ? null : a]) {
          if (!h) continue;
          insertRef.run(h, turnId);
          insertContent.run(h);
          out.refs++;
          if (out.referenced.length < 20) out.referenced.push(h);
        }
      }
      out.entries.set(turnId, entries);
      out.changes.set(turnId, changes);
    }
    for (let i = 0; i < 5; i++) {
      const h = hex(`loose ${i}`);
      insertContent.run(h);
      out.unreferenced.push(h);
    }
  })();
  migrate(db, path.dirname(file), version);
  db.close();
  return out;
}
