// The watcher thread's own side: every workspace's FsTreeWatcher of the process lives here, so
// the storms libuv reads event by event, the per-path coalescing, the folder budgets and the
// barriers never take the service's loop. The main thread (watcher-thread.ts) sends what a
// TreeWatcher is asked; a take answers the coalesced paths in one message, and `degraded`,
// asked synchronously there, is answered through shared memory while it waits.
import { parentPort, workerData } from 'node:worker_threads';
import { FsTreeWatcher } from './fs-watcher.js';
import { DEGRADED_HEADER_BYTES, type FromThread, type ThreadData, type ToThread } from './thread-protocol.js';
import { skipOf } from './watch-spec.js';

function serve(): void {
  const port = parentPort!;
  const shared = (workerData as ThreadData).degraded;
  const header = new Int32Array(shared, 0, 2);
  const text = new Uint8Array(shared, DEGRADED_HEADER_BYTES);
  const watchers = new Map<number, FsTreeWatcher>();
  const send = (message: FromThread) => port.postMessage(message);

  /** Answers a `degraded` question: -1 bytes for none, the reason cut to fit otherwise. */
  const answerDegraded = (seq: number, reason: string | null) => {
    let length = -1;
    if (reason !== null) {
      const { written } = new TextEncoder().encodeInto(reason, text);
      length = written;
    }
    Atomics.store(header, 1, length);
    Atomics.store(header, 0, seq);
    Atomics.notify(header, 0);
  };

  port.on('message', (message: ToThread) => {
    const watcher = watchers.get(message.id);
    switch (message.op) {
      case 'open': {
        const { id } = message;
        const log = (line: string) => send({ op: 'log', id, line, failure: watchers.get(id)?.unavailable() ?? null });
        let opened: FsTreeWatcher;
        try {
          const spec = { roots: message.roots, barrierDir: message.barrierDir, skip: skipOf(message.rules), log };
          opened = new FsTreeWatcher(spec, message.overflow);
        } catch (e) {
          // A spec that cannot be read fails its own watcher, not the other workspaces' on this thread.
          send({ op: 'log', id, line: '', failure: `it could not start (${(e as Error).message})` });
          return;
        }
        watchers.set(id, opened);
        // A failure while it started was logged before it was listed: said again with its state.
        const failure = opened.unavailable();
        if (failure) send({ op: 'log', id, line: '', failure });
        return;
      }
      case 'take':
        if (!watcher)
          return send({
            op: 'taken',
            id: message.id,
            seq: message.seq,
            dirty: null,
            failure: 'it is not open on the watcher thread',
          });
        void watcher
          .take()
          .then((dirty) =>
            send({ op: 'taken', id: message.id, seq: message.seq, dirty, failure: watcher.unavailable() }),
          );
        return;
      case 'rewatch':
        watcher?.rewatch(message.abs);
        return;
      case 'degraded': {
        let reason: string | null;
        try {
          reason = watcher?.degraded() ?? null;
        } catch (e) {
          reason = `the watcher could not check its watches (${(e as Error).message})`;
        }
        answerDegraded(message.seq, reason);
        return;
      }
      case 'close':
        watchers.delete(message.id);
        void (watcher?.close() ?? Promise.resolve()).then(() =>
          send({ op: 'closed', id: message.id, seq: message.seq }),
        );
        return;
    }
  });
}

// Only on the thread started for it (a test runner's own threads import nothing of this).
if (parentPort && (workerData as ThreadData | null)?.turnbackWatcher === true) serve();
