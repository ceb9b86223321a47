// Rollback-family calls that change the workspace, each answering with the contract's shapes,
// and the mutation options that run them. A mutation names in its `meta` what it makes stale;
// the query client's mutation cache (./mutationCache) invalidates that, in one place.
import type { OkResponse, RollbackResult } from '../../server/protocol';
import { apiPost, apiRequest } from './client';
import { keysAfterRollback } from './invalidate';
import { conflictChoice, type RollbackTarget } from './rollbackTarget';
import { apiBase, type WorkspaceScope } from './workspaceScope';

export type { RollbackMode, RollbackTarget } from './rollbackTarget';

const enc = encodeURIComponent;

export function runRollback(target: RollbackTarget, force: boolean): Promise<RollbackResult> {
  const base = apiBase(target.workspace);
  const choice = conflictChoice(target);
  switch (target.mode) {
    case 'turn':
    case 'undo':
      return apiPost<RollbackResult>(`${base}/turns/${enc(target.turnId)}/rollback`, { force, ...choice });
    case 'files':
      return apiPost<RollbackResult>(`${base}/turns/${enc(target.turnId)}/rollback`, {
        uris: target.uris ?? [],
        force,
        ...choice,
      });
    case 'steps':
      return apiPost<RollbackResult>(`${base}/turns/${enc(target.turnId)}/rollback`, {
        steps: target.steps ?? [],
        force,
        ...choice,
      });
    case 'chat':
      return apiPost<RollbackResult>(`${base}/turns/${enc(target.turnId)}/rollback-with-chat`, { force, ...choice });
    case 'rewind':
      return apiPost<RollbackResult>(`${base}/sessions/${enc(target.sessionId)}/rewind`, {
        toTurnId: target.turnId,
        withChat: target.withChat ?? false,
        force,
        ...choice,
      });
  }
}

/** Undo = roll back the rollback turn (it restores files, statuses and messages). */
export function undoRollback(scope: WorkspaceScope, rollbackTurnId: string, force = false): Promise<RollbackResult> {
  return apiPost<RollbackResult>(`${apiBase(scope)}/turns/${enc(rollbackTurnId)}/rollback`, { force });
}

export function deleteSession(scope: WorkspaceScope, sessionId: string): Promise<OkResponse> {
  return apiRequest<OkResponse>('DELETE', `${apiBase(scope)}/sessions/${enc(sessionId)}`);
}

/** Runs a rollback of `target` (`force`: overwrite conflicts); refreshes its session's views when done. */
export const rollbackMutation = (target: RollbackTarget) => ({
  mutationFn: (force: boolean) => runRollback(target, force),
  meta: { invalidates: keysAfterRollback(target.workspace, target.sessionId) },
});

/** Undoes the rollback turn `rollbackTurnId` of `target`'s session. */
export const undoMutation = (target: RollbackTarget, rollbackTurnId: string) => ({
  mutationFn: (force: boolean) => undoRollback(target.workspace, rollbackTurnId, force),
  meta: { invalidates: keysAfterRollback(target.workspace, target.sessionId) },
});
