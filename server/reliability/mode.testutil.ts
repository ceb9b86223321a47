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
