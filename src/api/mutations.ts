// Rollback-family calls. Each answers with the contract's shapes; callers invalidate through
// `invalidateAfterRollback` (./invalidate) so every view that may have changed refetches.
import type { OkResponse, Plan, RollbackResult } from '../../server/protocol';
import { apiPost, apiRequest } from './client';

const enc = encodeURIComponent;

/** `undo`: roll back a rollback turn (`turnId`), which puts back what it undid. */
export type RollbackMode = 'turn' | 'files' | 'chat' | 'rewind' | 'undo';

export interface RollbackTarget {
  mode: RollbackMode;
  sessionId: string;
  turnId: string;
  /** For `files`: the chosen URIs. */
  uris?: string[];
  /** For `rewind`: delete the chat from that turn on as well. */
  withChat?: boolean;
}

export function previewRollback(target: RollbackTarget): Promise<Plan> {
  switch (target.mode) {
    case 'turn':
    case 'undo':
      return apiPost<Plan>(`/api/turns/${enc(target.turnId)}/preview`, {});
    case 'files':
      return apiPost<Plan>(`/api/turns/${enc(target.turnId)}/preview`, { uris: target.uris ?? [] });
    case 'chat':
      return apiPost<Plan>(`/api/turns/${enc(target.turnId)}/preview`, { withChat: true });
    case 'rewind':
      return apiPost<Plan>(`/api/sessions/${enc(target.sessionId)}/rewind/preview`, {
        toTurnId: target.turnId,
        withChat: target.withChat ?? false,
      });
  }
}

export function runRollback(target: RollbackTarget, force: boolean): Promise<RollbackResult> {
  switch (target.mode) {
    case 'turn':
    case 'undo':
      return apiPost<RollbackResult>(`/api/turns/${enc(target.turnId)}/rollback`, { force });
    case 'files':
      return apiPost<RollbackResult>(`/api/turns/${enc(target.turnId)}/rollback`, { uris: target.uris ?? [], force });
    case 'chat':
      return apiPost<RollbackResult>(`/api/turns/${enc(target.turnId)}/rollback-with-chat`, { force });
    case 'rewind':
      return apiPost<RollbackResult>(`/api/sessions/${enc(target.sessionId)}/rewind`, {
        toTurnId: target.turnId,
        withChat: target.withChat ?? false,
        force,
      });
  }
}

/** Undo = roll back the rollback turn (it restores files, statuses and messages). */
export function undoRollback(rollbackTurnId: string, force = false): Promise<RollbackResult> {
  return apiPost<RollbackResult>(`/api/turns/${enc(rollbackTurnId)}/rollback`, { force });
}

export function deleteSession(sessionId: string): Promise<OkResponse> {
  return apiRequest<OkResponse>('DELETE', `/api/sessions/${enc(sessionId)}`);
}
