// Watchers for tests: the real one wrapped so that a test can drop, delay and duplicate what it
// names, kill it, and see whether the scans took its answers.
import type { DirtyPath, TreeWatcher, WatchSpec } from './tree-watcher.js';
import { FsTreeWatcher } from './fs-watcher.js';
import { ThreadTreeWatcher } from './watcher-thread.js';

export interface Faults {
  /** Drops each named path with this probability (or those `drop` picks). */
  drop?: (path: DirtyPath) => boolean;
  /** Holds back what was named for this many takes before handing it over. */
  delayTakes?: number;
  /** Names every path twice, and paths seen before again. */
  duplicate?: boolean;
}

export class FaultyWatcher implements TreeWatcher {
  readonly real: FsTreeWatcher | ThreadTreeWatcher;
  /** What each take answered: a count of paths, or null (a full scan follows). */
  readonly answers: (number | null)[] = [];
  private held: DirtyPath[][] = [];
  private seen: DirtyPath[] = [];
  private killed = false;

  constructor(
    spec: WatchSpec,
    public faults: Faults = {},
    overflow?: number,
  ) {
    // On the watcher thread, as the service runs it, when the spec can travel there.
    this.real = spec.rules ? new ThreadTreeWatcher(spec, overflow) : new FsTreeWatcher(spec, overflow);
  }

  /** Stops it for good, as a crash of its thread or an fd closed under it would. */
  async kill(): Promise<void> {
    this.killed = true;
    await this.real.close();
  }

  unavailable(): string | null {
    return this.killed ? 'killed by the test' : this.real.unavailable();
  }

  degraded(): string | null {
    return this.killed ? null : this.real.degraded();
  }

  rewatch(abs: string): void {
    if (!this.killed) this.real.rewatch(abs);
  }

  async take(): Promise<DirtyPath[] | null> {
    if (this.killed) {
      this.answers.push(null);
      return null;
    }
    const taken = await this.real.take();
    if (taken === null) {
      this.answers.push(null);
      return null;
    }
    let paths = taken.filter((p) => !this.faults.drop?.(p));
    if (this.faults.delayTakes) {
      this.held.push(paths);
      paths = this.held.length > this.faults.delayTakes ? this.held.shift()! : [];
    }
    if (this.faults.duplicate) paths = [...paths, ...paths, ...this.seen.slice(-5)];
    this.seen.push(...paths);
    this.answers.push(paths.length);
    return paths;
  }

  close(): Promise<void> {
    return this.real.close();
  }
}

/** A factory that keeps the watcher it made, for the test to reach. */
export function faultyFactory(
  faults: Faults = {},
  overflow?: number,
): { make(spec: WatchSpec): FaultyWatcher; made: FaultyWatcher[] } {
  const made: FaultyWatcher[] = [];
  return {
    made,
    make: (spec) => {
      const watcher = new FaultyWatcher(spec, faults, overflow);
      made.push(watcher);
      return watcher;
    },
  };
}
