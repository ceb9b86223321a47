// What a rollback would do, asked of the server without changing anything: the preview
// query's function (./queries), apart from the calls that do change things (./mutations).
import type { Plan } from '../../server/protocol';
import { apiPost } from './client';
import { conflictChoice, type RollbackTarget } from './rollbackTarget';
import { apiBase } from './workspaceScope';

const enc = encodeURIComponent;

export function previewRollback(target: RollbackTarget): Promise<Plan> {
  const base = apiBase(target.workspace);
  const choice = conflictChoice(target);
  switch (target.mode) {
    case 'turn':
    case 'undo':
      return apiPost<Plan>(`${base}/turns/${enc(target.turnId)}/preview`, { ...choice });
    case 'files':
      return apiPost<Plan>(`${base}/turns/${enc(target.turnId)}/preview`, { uris: target.uris ?? [], ...choice });
    case 'steps':
      return apiPost<Plan>(`${base}/turns/${enc(target.turnId)}/preview`, { steps: target.steps ?? [], ...choice });
    case 'chat':
      return apiPost<Plan>(`${base}/turns/${enc(target.turnId)}/preview`, { withChat: true, ...choice });
    case 'rewind':
      return apiPost<Plan>(`${base}/sessions/${enc(target.sessionId)}/rewind/preview`, {
        toTurnId: target.turnId,
        withChat: target.withChat ?? false,
        ...choice,
      });
  }
}
