// What a rollback-family action is aimed at: the shape the preview query, the rollback
// mutations, their query keys and the dialog share.
import type { WorkspaceScope } from './workspaceScope';

/** `undo`: roll back a rollback turn (`turnId`), which puts back what it undid; `steps`: some steps of a turn. */
export type RollbackMode = 'turn' | 'files' | 'chat' | 'rewind' | 'undo' | 'steps';

export interface RollbackTarget {
  /** The workspace of the turn (null: the server's default one). */
  workspace: WorkspaceScope;
  mode: RollbackMode;
  sessionId: string;
  turnId: string;
  /** For `files`: the chosen URIs. */
  uris?: string[];
  /** For `rewind`: delete the chat from that turn on as well. */
  withChat?: boolean;
  /** For `steps`: the chosen steps' `index`. */
  steps?: number[];
  /** `keep-both`: a conflicting file stays, the restored version is written beside it. */
  onConflict?: 'keep-both';
}

/** The body fields every preview and rollback of `target` carries beside its own. */
export function conflictChoice(target: RollbackTarget): { onConflict?: 'keep-both' } {
  return target.onConflict ? { onConflict: target.onConflict } : {};
}
