// Per-key promise queues: the operations of one session run one after another, in order. Every
// agent request that records goes through them, so they also tell the background work when the
// agent is being served (housekeeping.ts yields to it).
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
  /** When (performance.now()) a task last started or ended. */
  lastActiveAt = -Infinity;

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const timed = () => {
      this.lastActiveAt = performance.now();
      return task();
    };
    const result = previous.then(timed, timed);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      this.lastActiveAt = performance.now();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether a task is queued or running. */
  get active(): boolean {
    return this.tails.size > 0;
  }

  /** Resolves once every queued task (of every key) has settled. */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
