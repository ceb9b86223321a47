// At most a few transcript reads at once, the others wait their turn in order: thirty agents
// stopping together must not read thirty transcripts side by side (memory and disk).

export class ReadQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so `running` never dips below the work in hand.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Reads running now (for tests). */
  get active(): number {
    return this.running;
  }
}
