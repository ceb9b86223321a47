// Captured contents reach the disk in two steps. At capture, the bytes go into SQLite with the
// entry that needs them (`pending_contents`), in the one fully synced commit that must precede
// the mutation; the agent waits for nothing else. Later, off the agent's path, the flusher
// writes them as blob files, fsyncs those side by side, and only then drops their rows. After
// a crash, recovery writes back what is still pending.
import type { BlobStore } from './blobs.js';
import type { EngineContext } from './context.js';
import type { Store } from './store.js';

export class ContentFlusher {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly blobs: BlobStore, private readonly store: Store) {}

  /** Runs one flush after those already queued; a failure leaves the rows for the next one. */
  flush(): Promise<void> {
    // From a macrotask: whoever asked (a turn end) gets its answer before this work starts.
    const run = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.flushNow());
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<void> {
    const { blobs, store } = this;
    const hashes = store.pendingContentHashes();
    await blobs.writePending();
    // After-contents are synced too: a rollback that captures them later then has nothing to commit.
    await blobs.syncMany(blobs.unsyncedHashes());
    if (hashes.length > 0) store.removePendingContents(hashes);
    store.checkpoint();
  }
}

/** After a crash: every content still pending is written back as a verified, flushed blob. */
export async function restorePendingContents(ctx: EngineContext): Promise<void> {
  const hashes = ctx.store.pendingContentHashes();
  for (const hash of hashes) {
    const data = ctx.store.pendingContent(hash);
    if (data) await ctx.blobs.restore(hash, data);
  }
  ctx.store.removePendingContents(hashes);
}
