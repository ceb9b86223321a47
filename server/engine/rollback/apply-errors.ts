// Why a path a rollback drives could not reach its target, as the result names it: each
// failure the apply phase meets (its own, the storage's, the system's) turned into one of
// the restore codes of docs/api.md.
import type { RollbackResult } from '../../protocol.js';
import { UnrestorableContentError } from '../content/contents.js';
import { LinkOnPathError, TooLargeError } from '../errors.js';
import { DestinationChangedError } from '../paths/atomic-write.js';
import { errnoCode } from '../paths/fs.js';

export class LinkOnTheWay extends Error {
  readonly code = 'SYMLINK' as const;
  constructor() {
    super('a symlink appeared on the way; not followed');
  }
}

/** The path no longer shows what planning saw (a person's edit since): it is left as it is, never overwritten unseen. */
export class ChangedMeanwhile extends Error {
  constructor() {
    super('it changed after the rollback looked at it; left as it is (roll back again to weigh it anew)');
  }
}

/** A FIFO, socket or device as an original: the engine never makes one. */
export class SpecialNotMade extends Error {
  constructor(kind: string) {
    super(`the original was a special file (${kind}); turnback does not make one`);
  }
}

export type RestoreError = RollbackResult['errors'][number];

/** The error a rollback reports for `uri` when driving it failed with `e`. */
export function restoreErrorOf(uri: string, e: unknown): RestoreError {
  if (e instanceof LinkOnTheWay || e instanceof LinkOnPathError) return { uri, code: 'SYMLINK', message: e.message };
  if (e instanceof ChangedMeanwhile || e instanceof DestinationChangedError)
    return { uri, code: 'CHANGED', message: e.message };
  if (e instanceof UnrestorableContentError || e instanceof SpecialNotMade)
    return { uri, code: 'UNRESTORABLE', message: e.message };
  if (e instanceof TooLargeError) return { uri, code: 'TOO_LARGE', message: e.message };
  const systemCode = errnoCode(e);
  return { uri, code: 'IO', message: (e as Error)?.message ?? String(e), ...(systemCode ? { systemCode } : {}) };
}
