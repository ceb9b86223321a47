// The WAL checkpointed from a thread of its own while a scan stores much (the first build of
// the workspace index). SQLite's own checkpoint runs inside the commit that crosses its bound
// (wal_autocheckpoint): it copies up to 64 MiB of pages back into the database file and syncs
// it while the scan waits. From a second connection on a worker thread, a passive checkpoint
// every CHECKPOINT_EVERY_MS copies what the scan committed beside the scan, on the other core,
// and the WAL stays about as bounded (SQLite restarts it from its start once a checkpoint has
// copied it all). Building the index of 100,000 files (bench/build-probe.ts): 6.9 → 5.8 s.
// A passive checkpoint takes no lock a writer waits for, and never calls the busy handler;
// SQLite keeps a checkpoint cut short by a crash harmless (the WAL is replayed on open).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_EVERY_MS = 50;

// Plain JavaScript text run with `eval` (a worker cannot load the TypeScript sources under the
// test runner, and the build copies no .js files), as verify/stat-worker-source.ts.
const SOURCE = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { fileMustExist: true });
const pass = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing: the main connection's checkpoints take over when this thread stops.
  }
};
const timer = setInterval(pass, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.postMessage('stopped');
});
`;

const sqliteModule = createRequire(import.meta.url).resolve('better-sqlite3');

export interface WalCheckpointer {
  /** Stops the thread once its checkpoint in progress is done; never throws. */
  stop(): Promise<void>;
  /** Resolves when the thread could not start or failed: the caller checkpoints on its own again. */
  readonly failed: Promise<void>;
}

export function startWalCheckpointer(file: string): WalCheckpointer {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { file, sqlite: sqliteModule, everyMs: CHECKPOINT_EVERY_MS },
  });
  worker.unref();
  let ended = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      ended = true;
      resolve();
    });
  });
  const failed = new Promise<void>((resolve) => {
    worker.once('error', () => resolve());
    void exited.then(() => resolve());
  });
  return {
    failed,
    async stop() {
      if (ended) return;
      const stopped = new Promise<void>((resolve) => worker.once('message', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([stopped, exited]);
      await worker.terminate().catch(() => undefined);
    },
  };
}
