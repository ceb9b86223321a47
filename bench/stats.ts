// Summaries of repeated measurements: the median, with min and max to show the spread.
export interface Summary {
  median: number;
  min: number;
  max: number;
  p95: number;
  runs: number;
  samples: number[];
}

export function summarize(samples: number[]): Summary {
  if (samples.length === 0) throw new Error('no samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  return { median, min: sorted[0], max: sorted[sorted.length - 1], p95, runs: samples.length, samples };
}

/** The q-quantile (0–1) of the samples, linearly interpolated: the spread of paired differences. */
export function quantile(samples: number[], q: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

export interface RepeatOptions<T> {
  runs: number;
  /** Untimed runs first, so JIT and page cache do not land in the first sample. */
  warmup?: number;
  /** Untimed preparation of each run (its result is handed to the timed part). */
  setup?: (run: number) => Promise<T> | T;
  /** Untimed follow-up of each run (checks, bookkeeping). */
  after?: (run: number, prepared: T) => Promise<void> | void;
}

/** Times `body` in milliseconds, once per run, setup and follow-up excluded. */
export async function repeat<T = undefined>(
  body: (prepared: T, run: number) => Promise<unknown> | unknown,
  options: RepeatOptions<T>,
): Promise<Summary> {
  const samples: number[] = [];
  const warmup = options.warmup ?? 1;
  for (let run = 0; run < warmup + options.runs; run++) {
    const prepared = (options.setup ? await options.setup(run) : undefined) as T;
    const start = performance.now();
    await body(prepared, run);
    const elapsed = performance.now() - start;
    if (options.after) await options.after(run, prepared);
    if (run >= warmup) samples.push(elapsed);
  }
  return summarize(samples);
}

/**
 * Times a fast synchronous call: each sample is the mean over `inner` calls, so timer
 * resolution and one-off pauses do not dominate.
 */
export async function repeatFast(body: (i: number) => unknown, runs: number, inner: number): Promise<Summary> {
  for (let i = 0; i < inner; i++) body(i);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    for (let i = 0; i < inner; i++) body(i);
    samples.push((performance.now() - start) / inner);
    // Yield so timers and I/O callbacks between samples do not pile into the next one.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return summarize(samples);
}
