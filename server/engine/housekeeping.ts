// Work a turn end leaves for later, off the agent's path: contents captured raw are packed
// (compressed in the thread pool), and the WAL is checkpointed once it has grown. Nothing
// depends on it for safety: every content is durable in SQLite from the moment it is stored.
import type { ContentStore } from './contents.js';
import type { Store } from './store.js';

/** Contents packed per round: close() waits for one round at most. */
const PACK_ROUND = 16;

export class Housekeeping {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** The last failure (packing is retried by the next round; reads never depend on it). */
  lastFailure: unknown = null;

  constructor(private readonly contents: ContentStore, private readonly store: Store) {}

  /** Starts a round from a macrotask, so whoever asked (a turn end) gets its answer first. */
  schedule(): void {
    if (this.closed) return;
    if (this.running) { this.again = true; return; }
    this.running = this.run().finally(() => { this.running = null; });
  }

  private async run(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    do {
      this.again = false;
      try {
        while (!this.closed && (await this.contents.pack(PACK_ROUND)) > 0) { /* next round */ }
        if (!this.closed) this.store.checkpoint();
      } catch (e) {
        this.lastFailure = e;
      }
    } while (this.again && !this.closed);
  }

  /** Resolves once everything scheduled so far is done. */
  async settled(): Promise<void> {
    this.schedule();
    while (this.running) await this.running;
  }

  /** Stops after the current round; nothing is lost (what is not packed stays raw). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
  }
}
