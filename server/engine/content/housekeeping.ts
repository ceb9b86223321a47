// Work a turn end leaves for later, off the agent's path: contents captured raw are packed
// (most as deltas, encoded in the thread pool), free pages beyond a reserve are given back and
// the WAL is checkpointed once it has grown; once the store has been idle for IDLE_MS, every
// free page goes back, a small store is rewritten with full pages and the WAL is emptied
// (store-upkeep.ts), as on close. Nothing depends on it for safety: every content is durable
// in SQLite from the moment it is stored.
import type { ContentStore } from './contents.js';
import type { Store } from '../db/store.js';
import { CHECKPOINT_AT, checkpointIfGrown, compactIfGrown, releaseFreePages, tidyAtRest } from '../db/store-upkeep.js';

/** Contents packed per round: close() waits for one round at most. */
const PACK_ROUND = 16;
/** No transaction for this long: the agent is not working, the store is tidied. */
export const IDLE_MS = 2000;

export class Housekeeping {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The last failure (packing is retried by the next round; reads never depend on it). */
  lastFailure: unknown = null;

  private readonly idleMs: number;
  private readonly checkpointAt: number;

  constructor(
    private readonly contents: ContentStore,
    private readonly store: Store,
    options: { idleMs?: number; checkpointAt?: number } = {},
  ) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.checkpointAt = options.checkpointAt ?? CHECKPOINT_AT;
  }

  /** Starts a round from a macrotask, so whoever asked (a turn end) gets its answer first. */
  schedule(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    do {
      this.again = false;
      try {
        while (!this.closed && (await this.contents.pack(PACK_ROUND)) > 0) {
          /* next round */
        }
        if (!this.closed) {
          releaseFreePages(this.store);
          checkpointIfGrown(this.store, this.checkpointAt);
        }
      } catch (e) {
        this.lastFailure = e;
      }
    } while (this.again && !this.closed);
    this.armIdle(this.idleMs);
  }

  private armIdle(ms: number): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.closed) return;
    this.idleTimer = setTimeout(() => this.whenIdle(), ms);
    this.idleTimer.unref();
  }

  /** Tidies once nothing has written for `idleMs`; otherwise waits out the rest of it. */
  private whenIdle(): void {
    this.idleTimer = null;
    if (this.closed || this.running) return;
    const quiet = performance.now() - this.store.lastWriteAt;
    if (quiet < this.idleMs) {
      this.armIdle(this.idleMs - quiet);
      return;
    }
    try {
      tidyAtRest(this.store);
    } catch (e) {
      this.lastFailure = e;
    }
  }

  /** Resolves once everything scheduled so far is done. */
  async settled(): Promise<void> {
    this.schedule();
    while (this.running) await this.running;
  }

  /** Stops after the current round (what is not packed stays raw), and leaves the store tidy. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    while (this.running) await this.running;
    try {
      releaseFreePages(this.store, 0);
      // A small store's pages filled too, as at rest (store-upkeep.ts).
      compactIfGrown(this.store);
    } catch (e) {
      this.lastFailure = e;
    }
  }
}
