// The messages between the service's loop (watcher-thread.ts) and the watcher thread
// (fs-watcher-thread.ts). Ids name one workspace's watcher; `seq` names one awaited answer.
import type { DirtyPath, SkipRules } from './tree-watcher.js';

export type ToThread =
  | { op: 'open'; id: number; roots: string[]; barrierDir: string; rules: SkipRules; overflow?: number }
  | { op: 'take'; id: number; seq: number }
  | { op: 'rewatch'; id: number; abs: string }
  | { op: 'degraded'; id: number; seq: number }
  | { op: 'close'; id: number; seq: number };

/** A watcher's log line with its failure (null while it has none), or an answer. */
export type FromThread =
  | { op: 'log'; id: number; line: string; failure: string | null }
  | { op: 'taken'; id: number; seq: number; dirty: DirtyPath[] | null; failure: string | null }
  | { op: 'closed'; id: number; seq: number };

/** What the thread starts with: its mark, and the shared memory `degraded` is answered in. */
export interface ThreadData {
  turnbackWatcher: true;
  degraded: SharedArrayBuffer;
}

/** The shared memory of a `degraded` answer: [answered seq, byte length or -1 for none], then the UTF-8 text. */
export const DEGRADED_HEADER_BYTES = 8;
/** Room for the reason's text (a reason names a few folders; longer is cut). */
export const DEGRADED_TEXT_BYTES = 16 << 10;
