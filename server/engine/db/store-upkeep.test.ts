// The store's files stay bounded: pages freed by packing go back to the filesystem, the WAL is
// checkpointed once it has grown and its file emptied (or cut back, with a reader), and
// emptied once the store is idle.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentStore } from '../content/contents.js';
import { type DeltaRig, deltaRig } from '../content/deltas.testutil.js';
import { Housekeeping } from '../content/housekeeping.js';
import type { Store } from './store.js';
import { CHECKPOINT_AT, checkpointIfGrown, compactIfGrown, releaseFreePages, tidyAtRest } from './store-upkeep.js';

let rig: DeltaRig;
let dir: string;
let store: Store;
let contents: ContentStore;
beforeEach(async () => {
  rig = await deltaRig();
  ({ dir, store, contents } = rig);
});
afterEach(async () => {
  await rig.close();
});

const fileBytes = (suffix = '') =>
  statSync(path.join(dir, `turnback.db${suffix}`), { throwIfNoEntry: false })?.size ?? 0;
const pages = () => store.db.pragma('page_count', { simple: true }) as number;

/**
 * The busy timeout a test sets where upkeep must not wait on another connection: a wait would
 * last this long, far above what the work itself takes even on a stalled disk (a CI run saw a
 * WAL's checkpoint take 1.8 s), so half of it tells a wait from the work.
 */
const WAITED_OUT_MS = 20_000;

/** Runs `body` while a second connection holds a read snapshot of the store (another process reading). */
function whileAnotherProcessReads(body: () => void): void {
  const reader = new Database(path.join(dir, 'turnback.db'), { readonly: true });
  try {
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM contents').get();
    body();
    reader.exec('COMMIT');
  } finally {
    reader.close();
  }
}

/** Compressible contents captured raw, as a turn would: `n` of `size` bytes. */
function capture(n: number, size: number): string[] {
  const batch = contents.batch();
  const hashes = Array.from(
    { length: n },
    (_, i) => batch.keepBytes(Buffer.from(`content ${i} `.repeat(size / 10).slice(0, size))).hash,
  );
  store.transaction(() => batch.commit());
  return hashes;
}

describe('free pages', () => {
  it('a new store gives back the pages its packed contents freed, and every content still reads', async () => {
    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    const hashes = capture(40, 100_000);
    const before = pages();
    while ((await contents.pack(8)) > 0) {
      /* all */
    }
    expect(store.db.pragma('freelist_count', { simple: true })).toBeGreaterThan(before / 2);
    // A reserve larger than what is free keeps it all for the next captures.
    expect(releaseFreePages(store, 64 << 20)).toBe(0);
    expect(releaseFreePages(store, 0)).toBeGreaterThan(0);
    expect(store.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages()).toBeLessThan(before / 4);
    hashes.forEach((hash, i) =>
      expect(contents.read(hash).toString()).toBe(`content ${i} `.repeat(10_000).slice(0, 100_000)),
    );
  });
});

describe('half-filled pages', () => {
  /** Bytes the contents' pages hold no data in. */
  const unused = () =>
    (
      store.db.prepare("SELECT SUM(unused) AS n FROM dbstat WHERE name IN ('content_parts', 'contents')").get() as {
        n: number;
      }
    ).n;
  /**
   * Contents of a few KiB each, captured and packed a few at a time, as turns do: each packed
   * one moves to the end of its tables, after the raw ones of the next turn, whose places are
   * left empty once they are packed in turn.
   */
  async function packedSmallContents(n: number, from = 0): Promise<{ hash: string; text: string }[]> {
    const kept: { hash: string; text: string }[] = [];
    for (let i = 0; i < n; i += 3) {
      const batch = contents.batch();
      for (let j = i; j < Math.min(n, i + 3); j++) {
        // Hex, brotli about halves it: packed rows of 100 B to 4 KiB, as the history's are.
        const text = `${from + j} ${randomBytes(50 + ((j * 997) % 3600)).toString('hex')}`;
        kept.push({ hash: batch.keepBytes(Buffer.from(text)).hash, text });
      }
      store.transaction(() => batch.commit());
      while ((await contents.pack(16)) > 0) {
        /* all */
      }
    }
    releaseFreePages(store, 0);
    return kept;
  }

  it('a small store is rewritten densely at rest, every content still there, and again only once it has grown', async () => {
    const kept = await packedSmallContents(300);
    const [pagesBefore, unusedBefore] = [pages(), unused()];
    expect(compactIfGrown(store)).toBe(true);
    expect(pages()).toBeLessThan(pagesBefore);
    // What is left empty is what rows of these sizes leave on any page.
    expect(unused()).toBeLessThan(unusedBefore * 0.85);
    for (const { hash, text } of kept) expect(contents.read(hash).toString()).toBe(text);
    // Nothing written since: no second rewrite.
    expect(compactIfGrown(store)).toBe(false);
    kept.push(...(await packedSmallContents(20, 300)));
    expect(compactIfGrown(store)).toBe(false);
    kept.push(...(await packedSmallContents(300, 320)));
    expect(compactIfGrown(store)).toBe(true);
    for (const { hash, text } of kept) expect(contents.read(hash).toString()).toBe(text);
  });

  it('a store over the limit keeps its pages', async () => {
    await packedSmallContents(100);
    const before = pages();
    expect(compactIfGrown(store, (before - 1) * 4096)).toBe(false);
    expect(pages()).toBe(before);
  });

  it('never waits on another writer: the rewrite is left for the next rest', async () => {
    const kept = await packedSmallContents(100);
    const writer = new Database(path.join(dir, 'turnback.db'));
    store.db.pragma(`busy_timeout = ${WAITED_OUT_MS}`);
    try {
      writer.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      expect(compactIfGrown(store)).toBe(false);
      tidyAtRest(store);
      expect(performance.now() - started).toBeLessThan(WAITED_OUT_MS / 2);
      writer.exec('COMMIT');
    } finally {
      writer.close();
    }
    expect(compactIfGrown(store)).toBe(true);
    for (const { hash, text } of kept) expect(contents.read(hash).toString()).toBe(text);
  });

  it('is done by housekeeping at rest', async () => {
    const housekeeping = new Housekeeping(contents, store, { idleMs: 100 });
    await packedSmallContents(300);
    const before = unused();
    await housekeeping.settled();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(unused()).toBeLessThan(before * 0.85);
    await housekeeping.close();
  });
});

describe('the WAL', () => {
  it('is checkpointed once it passes CHECKPOINT_AT, and its file emptied then, not by the next write', () => {
    capture(2, CHECKPOINT_AT);
    expect(fileBytes('-wal')).toBeGreaterThan(2 * CHECKPOINT_AT);
    checkpointIfGrown(store);
    expect(fileBytes('-wal')).toBe(0);
    capture(1, 1000);
    expect(fileBytes('-wal')).toBeLessThanOrEqual(CHECKPOINT_AT);
  });

  it('with another process reading, is checkpointed without waiting, and its file cut back when SQLite restarts it', () => {
    capture(2, CHECKPOINT_AT);
    store.db.pragma(`busy_timeout = ${WAITED_OUT_MS}`);
    whileAnotherProcessReads(() => {
      const started = performance.now();
      checkpointIfGrown(store);
      expect(performance.now() - started).toBeLessThan(WAITED_OUT_MS / 2);
      expect(fileBytes('-wal')).toBeGreaterThan(2 * CHECKPOINT_AT);
    });
    checkpointIfGrown(store);
    capture(1, 1000); // the next write restarts the WAL from its start
    expect(fileBytes('-wal')).toBeLessThanOrEqual(CHECKPOINT_AT);
  });

  it('is left alone while small: nothing is copied into the database file', () => {
    tidyAtRest(store);
    capture(1, CHECKPOINT_AT / 4);
    const db = fileBytes();
    checkpointIfGrown(store);
    expect(fileBytes()).toBe(db);
    capture(1, CHECKPOINT_AT);
    checkpointIfGrown(store);
    expect(fileBytes()).toBeGreaterThan(db + CHECKPOINT_AT);
  });

  it('is emptied at rest', () => {
    capture(3, 200_000);
    tidyAtRest(store);
    expect(fileBytes('-wal')).toBe(0);
  });

  it('is emptied by housekeeping once nothing has written for a while, not before', async () => {
    // Margins of 200 ms either side of the quiet period: a loaded machine's timers fire late.
    // A round after a turn empties a WAL past its checkpointAt: raised here, so only rest does.
    const housekeeping = new Housekeeping(contents, store, { idleMs: 400, checkpointAt: 64 << 20 });
    capture(3, 200_000);
    await housekeeping.settled();
    expect(fileBytes('-wal')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    capture(1, 1000); // still working: the quiet period starts again
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fileBytes('-wal')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fileBytes('-wal')).toBe(0);
    expect(store.db.pragma('freelist_count', { simple: true })).toBe(0);
    await housekeeping.close();
  });
});

describe('at rest, with another process reading the store', () => {
  it('never waits on the reader: the WAL is left for the next rest', async () => {
    capture(3, 200_000);
    store.db.pragma(`busy_timeout = ${WAITED_OUT_MS}`);
    whileAnotherProcessReads(() => {
      const started = performance.now();
      tidyAtRest(store);
      expect(performance.now() - started).toBeLessThan(WAITED_OUT_MS / 2);
      expect(fileBytes('-wal')).toBeGreaterThan(0);
    });
    tidyAtRest(store);
    expect(fileBytes('-wal')).toBe(0);
  });
});
