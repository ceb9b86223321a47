// Keys seen in the last few seconds: an event a host delivers twice (through two of its hooks)
// is handled once. Bounded in count as well as time.

const WINDOW_MS = 10_000;
const MAX_KEYS = 1000;

export class RecentKeys {
  private readonly seenAt = new Map<string, number>();

  /** Whether `key` was seen within the window; it counts as seen now either way. */
  seen(key: string, now = Date.now()): boolean {
    for (const [old, at] of this.seenAt) {
      if (now - at <= WINDOW_MS && this.seenAt.size <= MAX_KEYS) break;
      this.seenAt.delete(old);
    }
    const before = this.seenAt.get(key);
    this.seenAt.delete(key);
    this.seenAt.set(key, now);
    return before !== undefined && now - before <= WINDOW_MS;
  }
}
