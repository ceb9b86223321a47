// The threads a full verification scan lstats on: one per core, shared by every engine of the
// process, started on first use and ended once idle for a while (a service with twenty quiet
// workspaces holds none). They keep the process alive only while they run a task. A thread
// that fails or exits fails the task it ran; the scan then walks the tree itself.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { STAT_WORKER_SOURCE } from './stat-worker-source.js';

/** One thread's share (stat-worker-source.ts tells each field). */
export interface StatTask {
  paths: string;
  kinds: Int8Array;
  stats: Float64Array;
  groups: Int32Array;
  owners: string;
  seen: Float64Array;
}

export interface StatAnswer {
  differ: number[];
  unlistable: number[];
  added: [number, string][];
  clean: Float64Array;
}

/** Idle this long, the threads end (starting one again costs a few tens of milliseconds). */
const IDLE_MS = 30_000;

class StatPool {
  private workers: Worker[] = [];
  private busy = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** One task at a time: a thread's answer is its one task's. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Tells a task's answer from a late one of a task that failed on another thread. */
  private nextId = 0;

  /** How many threads a task is split across. */
  size(): number {
    return Math.max(1, Math.min(4, os.availableParallelism()));
  }

  /** Runs each task on its own thread; rejects if any thread fails. */
  run(tasks: StatTask[]): Promise<StatAnswer[]> {
    const ran = this.queue.then(() => this.runNow(tasks));
    this.queue = ran.catch(() => undefined);
    return ran;
  }

  private async runNow(tasks: StatTask[]): Promise<StatAnswer[]> {
    this.busy++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      while (this.workers.length < tasks.length) this.workers.push(this.spawn());
      const used = this.workers.slice(0, tasks.length);
      // Held while they run (an await alone would not keep the process alive), let go when idle.
      for (const worker of used) worker.ref();
      try {
        return await Promise.all(tasks.map((task, i) => this.ask(used[i]!, task)));
      } finally {
        for (const worker of used) worker.unref();
      }
    } finally {
      if (--this.busy === 0) {
        this.idleTimer = setTimeout(() => this.end(), IDLE_MS);
        this.idleTimer.unref();
      }
    }
  }

  private spawn(): Worker {
    const worker = new Worker(STAT_WORKER_SOURCE, { eval: true });
    worker.unref();
    // A thread that failed is dropped: the next task starts a fresh one.
    const drop = () => {
      this.workers = this.workers.filter((w) => w !== worker);
    };
    worker.once('error', drop);
    worker.once('exit', drop);
    return worker;
  }

  private ask(worker: Worker, task: StatTask): Promise<StatAnswer> {
    return new Promise((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const id = this.nextId++;
      const onMessage = (answer: StatAnswer & { id: number; error?: string }) => {
        if (answer.id !== id) return;
        done();
        if (answer.error !== undefined) reject(new Error(answer.error));
        else resolve(answer);
      };
      const onError = (e: Error) => {
        done();
        reject(e);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`a stat thread exited (${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ ...task, id });
    });
  }

  private end(): void {
    const workers = this.workers;
    this.workers = [];
    for (const worker of workers) void worker.terminate();
  }
}

export const statPool = new StatPool();
