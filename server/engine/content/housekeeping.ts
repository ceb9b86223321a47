// Work a turn end leaves for later, off the agent's path: contents captured raw are packed
// (most as deltas, encoded in the thread pool), free pages beyond a reserve are given back and
// the WAL is checkpointed once it has grown; once the store has been idle for IDLE_MS, every
// free page goes back, a small store is rewritten with full pages and the WAL is emptied
// (store-upkeep.ts), as on close. Nothing depends on it for safety: every content is durable
// in SQLite from the moment it is stored.
import type { ContentStore } from './contents.js';
import type { Store } from '../db/store.js';
import { CHECKPOINT_AT, checkpointIfGrown, compactIfGrown, releaseFreePages, tidyAtRest } from '../db/store-upkeep.js';

/** Contents listed per round (close() and the agent interrupt a round between two contents). */
const PACK_ROUND = 16;
/** No transaction for this long: the agent is not working, the store is tidied. */
export const IDLE_MS = 2000;
/**
 * No agent request for this long: packing goes on. Longer than the gap between a tool's before
 * and after hooks and between a turn's quick writes, shorter than a model's reply between tool
 * calls, where packing then runs (bench item 15).
 */
export const QUIET_MS = 250;

/**
 * What packing gives way to: the agent's requests (the engine's session queues). Before each
 * content, while one is being served or was within QUIET_MS, packing waits, so a turn that
 * begins right after another does not share its two cores with the last one's packing
 * (docs/design.md, "Packing: the trade"). A caller of settled() is not kept waiting: it asked
 * for the work to be done.
 */
export interface AgentActivity {
  readonly active: boolean;
  /** performance.now() when a request last began or ended. */
  readonly lastActiveAt: number;
}

export class Housekeeping {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Callers of settled() waiting: packing does not yield meanwhile. */
  private hurried = 0;
  /** Ends a wait for the agent early (settled(), close()). */
  private wake: (() => void) | null = null;
  /** The last failure (packing is retried by the next round; reads never depend on it). */
  lastFailure: unknown = null;
  /** Times packing waited for the agent (for tests). */
  yields = 0;

  private readonly idleMs: number;
  private readonly checkpointAt: number;
  private readonly quietMs: number;
  private readonly agent: AgentActivity | null;

  constructor(
    private readonly contents: ContentStore,
    private readonly store: Store,
    options: { idleMs?: number; checkpointAt?: number; quietMs?: number; agent?: AgentActivity } = {},
  ) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.checkpointAt = options.checkpointAt ?? CHECKPOINT_AT;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.agent = options.agent ?? null;
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
        const before = () => this.yieldToAgent();
        while (!this.closed && (await this.contents.pack(PACK_ROUND, before)) > 0) {
          /* next round */
        }
        await this.yieldToAgent();
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

  /**
   * Waits while the agent is being served or was within quietMs (unless someone awaits
   * settled()); answers whether to go on (false once closed).
   */
  private async yieldToAgent(): Promise<boolean> {
    for (;;) {
      if (this.closed) return false;
      const agent = this.agent;
      if (!agent || this.hurried > 0) return true;
      const quiet = agent.active ? 0 : performance.now() - agent.lastActiveAt;
      if (quiet >= this.quietMs) return true;
      this.yields++;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(1, this.quietMs - quiet));
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
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

  /** Resolves once everything scheduled so far is done, packing without waiting for the agent. */
  async settled(): Promise<void> {
    this.hurried++;
    try {
      this.wake?.();
      this.schedule();
      while (this.running) await this.running;
    } finally {
      this.hurried--;
    }
  }

  /** Stops before the next content (what is not packed stays raw), and leaves the store tidy. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
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
