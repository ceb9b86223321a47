// The service's side of the watcher thread: one thread per process holds every workspace's
// watches (fs-watcher-thread.ts), so a storm of events is read, coalesced and budgeted there and
// the service's loop only gets each take's coalesced paths in one message. The thread is started
// with the first watcher, keeps the process alive only while an answer is awaited, and ends
// once no watcher has used it for a while. If it dies, every watcher on it is unavailable (full
// scans), as a failed watcher is.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DirtyPath, TreeWatcher, WatchSpec } from './tree-watcher.js';
import {
  DEGRADED_HEADER_BYTES,
  DEGRADED_TEXT_BYTES,
  type FromThread,
  type ThreadData,
  type ToThread,
} from './thread-protocol.js';

/** How long `degraded` waits for the thread's answer (it blocks the loop meanwhile; the thread answers between events). */
const DEGRADED_WAIT_MS = 5_000;
/** With no watcher left, the thread ends after this long (starting one again costs tens of milliseconds). */
const IDLE_MS = 10_000;

interface Client {
  message(message: FromThread): void;
  ended(reason: string): void;
}

function startWorker(data: ThreadData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./fs-watcher-thread.js', here), { workerData: data });
  // Run from the TypeScript sources (tests, tsx): the thread registers tsx's loader first.
  const api = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const entry = new URL('./fs-watcher-thread.ts', here).href;
  const boot = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: data, execArgv: [] });
}

class WatcherThread {
  private readonly worker: Worker;
  private readonly clients = new Map<number, Client>();
  private readonly header: Int32Array;
  private readonly text: Uint8Array;
  private degradedSeq = 0;
  /** Answers awaited: the thread keeps the process alive while there are any. */
  private awaited = 0;
  private idle: NodeJS.Timeout | undefined;
  ended: string | null = null;

  constructor(private readonly onEnd: (thread: WatcherThread) => void) {
    const shared = new SharedArrayBuffer(DEGRADED_HEADER_BYTES + DEGRADED_TEXT_BYTES);
    this.header = new Int32Array(shared, 0, 2);
    this.text = new Uint8Array(shared, DEGRADED_HEADER_BYTES);
    this.worker = startWorker({ turnbackWatcher: true, degraded: shared });
    this.worker.unref();
    this.worker.on('message', (message: FromThread) => this.clients.get(message.id)?.message(message));
    this.worker.on('error', (e) => this.end(e.message));
    this.worker.on('exit', (code) => this.end(`it exited with code ${code}`));
  }

  attach(id: number, client: Client): void {
    clearTimeout(this.idle);
    this.clients.set(id, client);
  }

  /** Forgets a closed watcher; the last one gone, the thread ends after IDLE_MS unless another comes. */
  detach(id: number): void {
    this.clients.delete(id);
    if (this.clients.size > 0 || this.ended) return;
    this.idle = setTimeout(() => void this.worker.terminate(), IDLE_MS);
    this.idle.unref();
  }

  send(message: ToThread): void {
    if (!this.ended) this.worker.postMessage(message);
  }

  /** Sends a question whose answer the caller awaits: the process stays alive until `answered`. */
  ask(message: ToThread): void {
    if (this.ended) return;
    if (this.awaited++ === 0) this.worker.ref();
    this.worker.postMessage(message);
  }

  answered(): void {
    if (--this.awaited === 0) this.worker.unref();
  }

  /** The thread's answer to `degraded`, waited for here (the question is a synchronous one). */
  degraded(id: number): string | null {
    if (this.ended) return null;
    const seq = (this.degradedSeq = (this.degradedSeq % 0x7fff_fffe) + 1);
    this.worker.postMessage({ op: 'degraded', id, seq } satisfies ToThread);
    const deadline = Date.now() + DEGRADED_WAIT_MS;
    for (;;) {
      const answered = Atomics.load(this.header, 0);
      if (answered === seq) break;
      const left = deadline - Date.now();
      if (left <= 0 || this.ended)
        return `the watcher thread did not answer within ${DEGRADED_WAIT_MS / 1000} s; checked again when asked`;
      Atomics.wait(this.header, 0, answered, left);
    }
    const length = Atomics.load(this.header, 1);
    return length < 0 ? null : new TextDecoder().decode(this.text.slice(0, length));
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = reason;
    clearTimeout(this.idle);
    this.onEnd(this);
    for (const client of this.clients.values()) client.ended(reason);
    this.clients.clear();
  }
}

let current: WatcherThread | null = null;

function watcherThread(): WatcherThread {
  if (!current || current.ended) {
    current = new WatcherThread((thread) => {
      if (current === thread) current = null;
    });
  }
  return current;
}

let nextId = 1;

/** A workspace's watcher, run on the watcher thread: what TreeWatcher promises, asked by message. */
export class ThreadTreeWatcher implements TreeWatcher {
  private readonly id = nextId++;
  private readonly thread = watcherThread();
  private failure: string | null = null;
  private seq = 0;
  private readonly pending = new Map<number, (message: FromThread | null) => void>();
  private closed = false;

  /** `overflow`: how many events since a barrier count as an overflow (tests make it small). */
  constructor(
    private readonly spec: WatchSpec,
    overflow?: number,
  ) {
    if (!spec.rules) throw new Error('the watcher thread needs the spec as data (its rules)');
    this.thread.attach(this.id, {
      message: (message) => this.onMessage(message),
      ended: (reason) => this.onEnded(reason),
    });
    this.thread.send({
      op: 'open',
      id: this.id,
      roots: spec.roots,
      barrierDir: spec.barrierDir,
      rules: spec.rules,
      overflow,
    });
  }

  unavailable(): string | null {
    return this.failure;
  }

  degraded(): string | null {
    if (this.failure || this.closed) return null;
    return this.thread.degraded(this.id);
  }

  rewatch(abs: string): void {
    if (!this.failure && !this.closed) this.thread.send({ op: 'rewatch', id: this.id, abs });
  }

  async take(): Promise<DirtyPath[] | null> {
    if (this.failure || this.closed) return null;
    const answer = await this.ask((seq) => ({ op: 'take', id: this.id, seq }));
    if (answer?.op !== 'taken') return null;
    if (answer.failure && !this.failure) this.failure = answer.failure;
    return this.failure ? null : answer.dirty;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ask((seq) => ({ op: 'close', id: this.id, seq }));
    // A take still awaited (asked before the close) is answered after it, to no client: it ends here.
    for (const resolve of this.pending.values()) {
      this.thread.answered();
      resolve(null);
    }
    this.pending.clear();
    this.thread.detach(this.id);
  }

  private ask(message: (seq: number) => ToThread): Promise<FromThread | null> {
    if (this.thread.ended) return Promise.resolve(null);
    const seq = ++this.seq;
    const answer = new Promise<FromThread | null>((resolve) => this.pending.set(seq, resolve));
    this.thread.ask(message(seq));
    return answer;
  }

  private onMessage(message: FromThread): void {
    if (message.op === 'log') {
      if (message.failure && !this.failure) this.failure = message.failure;
      if (message.line) this.spec.log(message.line);
      return;
    }
    const resolve = this.pending.get(message.seq);
    if (!resolve) return;
    this.pending.delete(message.seq);
    this.thread.answered();
    resolve(message);
  }

  private onEnded(reason: string): void {
    if (!this.failure && !this.closed) {
      this.failure = `its thread ended (${reason})`;
      this.spec.log(`the filesystem watcher is unavailable: ${this.failure}; every command is scanned in full`);
    }
    for (const resolve of this.pending.values()) resolve(null);
    this.pending.clear();
  }
}
