// What every contender does for the turn-level figures (capture, rollback, storage).
import type { TreeSize } from '../fs-tools.js';
import type { FileEdit } from '../workloads.js';

export interface Contender {
  readonly name: 'raw' | 'shadow-git' | 'turnback';
  readonly workspace: string;
  /** Untimed preparation of a turn that will be rolled back (raw keeps the originals here). */
  beforeTurn(paths: string[]): Promise<void>;
  /** One agent turn writing these files, durable or recorded as the contender does it; returns a handle for `rollback`. */
  turn(edits: FileEdit[], title: string): Promise<string>;
  /** Untimed: waits for background work the last call left running, so it is not timed inside another figure. */
  settle?(): Promise<void>;
  /** Brings the turn's paths back to their state before it. */
  rollback(handle: string, paths: string[]): Promise<void>;
  /** Bytes the contender keeps besides the workspace (none for raw). */
  storeSize(): Promise<TreeSize | null>;
  close(): Promise<void>;
}
