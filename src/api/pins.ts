// Named points: a pin is a turn of kind `pin` in the workspace's session `turnback-pins`
// (docs/api.md "Pins"); rewinding that session to a pin takes every later turn back.
import type { PinResponse } from '../../server/protocol';
import { apiPost, apiRequest } from './client';
import { keys } from './keys';
import { apiBase, type WorkspaceScope } from './workspaceScope';

export const PINS_SESSION = 'turnback-pins';

export function createPin(scope: WorkspaceScope, name: string): Promise<PinResponse> {
  return apiPost<PinResponse>(`${apiBase(scope)}/pins`, name.trim() ? { name: name.trim() } : {});
}

export function deletePin(scope: WorkspaceScope, turnId: string): Promise<unknown> {
  return apiRequest('DELETE', `${apiBase(scope)}/pins/${encodeURIComponent(turnId)}`);
}

/** A pin adds a turn to the pins session (and, the first time, the session itself). */
export const pinMutation = (scope: WorkspaceScope) => ({
  mutationFn: (name: string) => createPin(scope, name),
  meta: {
    invalidates: [
      keys.in(scope).pins.all,
      keys.in(scope).sessions.all,
      keys.in(scope).turns.ofSession(PINS_SESSION),
      keys.in(scope).store.all,
    ],
  },
});
