// What the scans ask of a filesystem watcher: which paths may have changed since they last
// asked. The engine never trusts it alone: a turn's start and end are scanned in full, and an
// answer of `null` (the watcher overflowed, failed, restarted or cannot tell) means a full scan.

/** One path an event named: `tree` when everything below it must be walked too (a new folder). */
export interface DirtyPath {
  abs: string;
  tree: boolean;
}

export interface TreeWatcher {
  /**
   * Resolves once every event raised by a syscall made before the call has been read (a
   * barrier), with the paths named since the previous `take` — or null when that is not known.
   * The next `take` answers from this point.
   */
  take(): Promise<DirtyPath[] | null>;
  /** Why the watcher cannot be relied on (null while it can): for the engine's status and log. */
  unavailable(): string | null;
  /**
   * Why part of the tree is not watched now (a root gone, a watch the kernel dropped), checked
   * when asked; null while every folder is. What it finds is healed, and scanned, at the next take.
   */
  degraded?(): string | null;
  /** A folder (or the one holding a path) a scan found a change in that no event named: watched afresh. */
  rewatch?(abs: string): void;
  close(): Promise<void>;
}

/** What a watcher is started on: the folders to watch, and where its private barrier folder goes. */
export interface WatchSpec {
  /** Absolute real paths of the tracked roots. */
  roots: string[];
  /** Whether a folder is left unwatched (the engine's own data, excluded paths). */
  skip(abs: string): boolean;
  /** A private folder the watcher may create and write in (outside every root). */
  barrierDir: string;
  log(line: string): void;
  /** What `skip` is built from, as plain data: with it the watcher may run on a thread of its own. */
  rules?: SkipRules;
}

/** The roots' engine data and the exclude globs (a RegExp's source and flags), as `skip` reads them. */
export interface SkipRules {
  roots: { real: string; engineData: string[] }[];
  exclude: { source: string; flags: string }[];
}

export type WatcherFactory = (spec: WatchSpec) => TreeWatcher | null;
