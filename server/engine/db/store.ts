// The engine's store in SQLite (better-sqlite3, WAL): the connection, its transactions, and a
// repository per table group, each the only code that reads and writes its tables (sessions,
// turns, entries and changes, commands, messages, contents, the workspace index). Synchronous
// and transactional.
import { closeSync, constants, fchmodSync, fstatSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { removeLegacyBlobDir } from './legacy-blobs.js';
import { StoreDamagedError } from '../errors.js';
import { Commands } from './commands.js';
import { ContentRows } from './contents.js';
import { Entries } from './entries.js';
import { Messages } from './messages.js';
import { Overwrites } from './overwrites.js';
import { Sessions } from './sessions.js';
import { Turns } from './turns.js';
import { IndexRows } from './workspace-index.js';
import { migrate } from './schema.js';
import { CHECKPOINT_AT } from './store-upkeep.js';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';

/** SQLite's own checkpoint, a backstop (see configure): once the WAL holds this many pages. */
const AUTOCHECKPOINT_PAGES = 16384;

/**
 * The database and its WAL and shared-memory files readable by their owner only: made 0600 before
 * SQLite opens it (SQLite gives the -wal and -shm it makes the database's own mode), and an
 * older, wider one narrowed. Never through a link.
 */
function makePrivate(file: string): void {
  const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  const open = (name: string, create: boolean): number | null => {
    try {
      return openSync(name, O_RDONLY | O_NOFOLLOW);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (!create) return null;
    try {
      return openSync(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    } catch (e) {
      // Made meanwhile by another opener: narrowed as an existing one.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return open(name, false);
      throw e;
    }
  };
  for (const [name, create] of [
    [file, true],
    [`${file}-wal`, false],
    [`${file}-shm`, false],
  ] as const) {
    const fd = open(name, create);
    if (fd === null) continue;
    try {
      if (fstatSync(fd).mode & 0o077) fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
  }
}

export class Store {
  readonly db: Database.Database;
  readonly sessions = new Sessions(this);
  readonly turns = new Turns(this);
  /** A turn's entries, changes and content references. */
  readonly entries = new Entries(this);
  /** The turns' commands, a row each. */
  readonly commands = new Commands(this);
  readonly messages = new Messages(this);
  readonly contents = new ContentRows(this);
  readonly index = new IndexRows(this);
  /** The files a rollback turn writes over in place, until it commits. */
  readonly overwrites = new Overwrites(this);
  private readonly statements = new Map<string, Database.Statement>();
  private readonly forgotten: string[] = [];
  /** The thread checkpointing the WAL while a scan stores much, or null. */
  private checkpointer: WalCheckpointer | null = null;
  /** When (performance.now()) the last transaction ran: how long the store has been idle. */
  lastWriteAt = performance.now();

  constructor(readonly file: string) {
    makePrivate(file);
    this.db = new Database(file);
    try {
      this.configure(file);
    } catch (e) {
      this.db.close();
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
        throw new StoreDamagedError(file, (e as Error).message);
      throw e;
    }
  }

  private configure(file: string): void {
    // Both take effect when the file is created. 4 KiB pages, the filesystem's block: 2 KiB
    // pages made the commander.js store 3% smaller, 1 and 8 KiB larger (bench item 10), not
    // worth writes below the block size. Incremental auto-vacuum lets the pages packed
    // contents free be given back (store-upkeep.ts).
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('page_size = 4096');
    this.db.pragma('journal_mode = WAL');
    // Relaxed by default; the transactions that must reach the disk before the code goes on
    // (a capture, before its mutation) say so (`transaction`).
    this.db.pragma('synchronous = NORMAL');
    // The WAL is checkpointed between turns once it passes CHECKPOINT_AT, and emptied when
    // the store is idle (store-upkeep.ts), off the agent's path; SQLite's own checkpoint,
    // which would land inside a capture, is only a backstop. When SQLite restarts the WAL, its
    // file is cut back to CHECKPOINT_AT, so it stays bounded after a large capture too.
    this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.db.pragma(`journal_size_limit = ${CHECKPOINT_AT}`);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('busy_timeout = 2000');
    // A damaged page is found here, once, rather than by whichever request reads it first.
    const check = this.db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreDamagedError(file, String(check));
    migrate(this.db, path.dirname(file));
    removeLegacyBlobDir(path.dirname(file));
  }

  /** A prepared statement, cached by its text. */
  st(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A transaction that reaches the disk before it returns (a full WAL sync), with every relaxed one before it. */
  transaction<T>(run: () => T): T {
    if (this.db.inTransaction) return run();
    this.lastWriteAt = performance.now();
    this.db.pragma('synchronous = FULL');
    try {
      return this.db.transaction(() => {
        this.dropForgotten();
        return run();
      })();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  /**
   * A transaction whose loss to a power cut is harmless (turn rows, messages, commits: recovery
   * redoes a lost commit from disk). It skips the WAL sync; the next full transaction carries
   * it to disk, since the WAL is sequential.
   */
  relaxed<T>(run: () => T): T {
    if (this.db.inTransaction) return run();
    this.lastWriteAt = performance.now();
    return this.db.transaction(() => {
      this.dropForgotten();
      return run();
    })();
  }

  close(): void {
    void this.checkpointer?.stop();
    this.checkpointer = null;
    this.db.close();
  }

  /**
   * While a scan stores much: the WAL checkpointed from a thread (wal-checkpointer.ts), not
   * inside this connection's commits. Answers the function that ends it, which resolves once
   * the thread has stopped and this connection checkpoints on its own again. One at a time:
   * a second call while one runs shares it.
   */
  offloadCheckpoints(): () => Promise<void> {
    if (this.checkpointer) return async () => undefined;
    const checkpointer = startWalCheckpointer(this.file);
    this.checkpointer = checkpointer;
    this.db.pragma('wal_autocheckpoint = 0');
    const resume = () => {
      if (this.checkpointer !== checkpointer) return;
      this.checkpointer = null;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    };
    // A thread that could not start or failed: this connection's own checkpoints at once.
    void checkpointer.failed.then(resume);
    return async () => {
      await checkpointer.stop();
      resume();
    };
  }

  /** Drops a session's rows; its counter stays so numbers are never reused. Answers its turns' ids. */
  deleteSession(sessionId: string): string[] {
    const turnIds = this.turns.idsOfSession(sessionId);
    for (const turnId of turnIds) {
      this.entries.removeTurn(turnId);
      this.commands.removeTurn(turnId);
      this.overwrites.clear(turnId);
    }
    this.turns.removeSession(sessionId);
    this.sessions.remove(sessionId);
    return turnIds;
  }

  /** Drops a turn that changed nothing (a rollback that did nothing); its number is never reused. */
  dropTurn(turnId: string): void {
    this.entries.removeTurn(turnId);
    this.overwrites.clear(turnId);
    this.turns.remove(turnId);
  }

  // ---- workspace temp files in flight ----

  addPendingTemp(path: string): void {
    this.relaxed(() => this.st('INSERT OR IGNORE INTO pending_temps (path) VALUES (?)').run(path));
  }
  removePendingTemp(path: string): void {
    this.relaxed(() => this.st('DELETE FROM pending_temps WHERE path = ?').run(path));
  }
  /**
   * A temp file that is gone now (renamed into place): its row is dropped with the next
   * transaction, not in one of its own. A row left by a crash is harmless: recovery only
   * removes a file that still carries the temp prefix.
   */
  forgetPendingTemp(path: string): void {
    this.forgotten.push(path);
  }
  private dropForgotten(): void {
    for (const path of this.forgotten.splice(0)) this.st('DELETE FROM pending_temps WHERE path = ?').run(path);
  }
  pendingTemps(): string[] {
    return (this.st('SELECT path FROM pending_temps').all() as { path: string }[]).map((r) => r.path);
  }
}
