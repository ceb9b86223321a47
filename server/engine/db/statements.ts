// What a repository needs of the store: prepared statements by their text, and the connection
// (to tell whether a transaction is open).
import type Database from 'better-sqlite3';

export interface Statements {
  readonly db: Database.Database;
  st(sql: string): Database.Statement;
}
