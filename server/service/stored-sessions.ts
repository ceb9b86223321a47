// A closed workspace's session count, read from its store (read-only, its engine left closed), so
// `status` and the console say the real count after a restart, not 0 until the engine next opens.
import path from 'node:path';
import Database from 'better-sqlite3';

/** The sessions in the store under `dataDir`; 0 when it has no store yet or it cannot be read. */
export function storedSessionCount(dataDir: string): number {
  let db: Database.Database | undefined;
  try {
    db = new Database(path.join(dataDir, 'store', 'turnback.db'), { readonly: true, fileMustExist: true });
    return (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
