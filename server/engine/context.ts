// The engine's wiring: everything `index.ts` builds once (the filesystem seam, roots, contents,
// the store, events, per-session queues, the in-memory view of turns being recorded) and hands
// to the modules. A module does not take it whole: it names what it touches in an interface of
// its own (`CommitDeps`, `CaptureDeps`, …), which this satisfies. Beside it, the small shapes
// several of those interfaces share.
import type { IgnoredBudget } from './record/ignored-folders.js';
import type { ContentStore } from './content/contents.js';
import type { Events } from './events.js';
import type { EngineFs } from './paths/fs.js';
import type { Housekeeping } from './content/housekeeping.js';
import type { KeyedQueue } from './queue.js';
import type { Roots } from './paths/roots.js';
import type { ContentHolders } from './content/holders.js';
import type { Store } from './db/store.js';
import type { ActiveTurns, TurnContext } from './turns/active-turns.js';

export type { TurnContext };

/** The store's transactions, for a module that writes through several repositories at once. */
export interface StoreTransactions {
  transaction<T>(run: () => T): T;
  /** A transaction that may wait for the disk (see Store.relaxed). */
  relaxed<T>(run: () => T): T;
}

/** The command scans, when a watcher keeps them to what changed (record/exec.ts). */
export interface ScanCatchUp {
  catchUp(turn: TurnContext, uris: string[]): Promise<void>;
}

export interface EngineLimits {
  maxFileSize: number;
  maxDeleteFiles: number;
  maxDeleteBytes: number;
  keepDays: number;
  keepSessions: number;
  /** The store's budget in bytes (turns/budget.ts); null: the default, from the workspace's size. */
  storeBudget: number | null;
  /** The budget the engine was opened with (`--store-budget`): what clearing the workspace's own setting goes back to. */
  openedBudget: number | null;
  /** A rollback places contents in batches of about this many bytes (see rollback/place-contents.ts). */
  placeBatchBytes: number;
  exclude: RegExp[];
  /** Git-ignored folders larger than this are left out of the scans (null: none is). */
  ignoredBudget: IgnoredBudget | null;
  /** Ignored folders protected whatever their size (`--protect`). */
  protect: RegExp[];
  scopes: string[];
}

export interface EngineContext {
  fs: EngineFs;
  roots: Roots;
  contents: ContentStore;
  store: Store;
  /** Packs contents and checkpoints the WAL after turns (in the background). */
  housekeeping: Housekeeping;
  events: Events;
  queue: KeyedQueue;
  limits: EngineLimits;
  dataDir: string;
  /** Turns being recorded, and each session's active one. */
  turns: ActiveTurns;
  /** What keeps contents alive besides turns and the index (open commands' snapshots): the sweep asks. */
  holders: ContentHolders;
  /** The command scans, when a watcher keeps them to what changed: a capture asks them to catch up on its paths first. */
  scans?: ScanCatchUp;
  /** Sessions pruned by retention since the engine opened. */
  retention: { pruned: number; prunedForBudget: number; toldForBudget: number; prunedForPersonBudget: number };
  /** One line for the host's log (pruning, problems the engine got past). */
  log(line: string): void;
  now(): number;
}
