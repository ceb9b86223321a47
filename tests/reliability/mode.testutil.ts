// Quick or full: `npm test` runs a sample (CI budget), `npm run test:reliability` sets
// TURNBACK_RELIABILITY=full and runs every crash point, more fuzz runs and a longer load.
export const FULL = process.env.TURNBACK_RELIABILITY === 'full';

/** Every item in the full run; an evenly spread sample (first and last included) otherwise. */
export function sampleOf<T>(items: T[], quickCount: number): T[] {
  if (FULL || items.length <= quickCount) return items;
  if (quickCount === 1) return [items[0]];
  const picked = new Set<number>([0, items.length - 1]);
  const step = (items.length - 1) / Math.max(1, quickCount - 1);
  for (let i = 0; picked.size < quickCount && i < quickCount; i++) picked.add(Math.round(i * step));
  return [...picked].sort((a, b) => a - b).map((i) => items[i]);
}

export function quickOrFull<T>(quick: T, full: T): T {
  return FULL ? full : quick;
}

/**
 * Runs `task` over the items, `limit` at a time, answering results in item order. Each case
 * has its own sandbox and engine, and most of a case is spent waiting on fsync, so several
 * at once finish the sweep sooner on the same cores.
 */
export async function inPool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Cases run at once in a sweep. */
export const POOL = Number(process.env.TURNBACK_RELIABILITY_POOL) || 4;
