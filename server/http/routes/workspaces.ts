// `GET /api/workspaces`, `POST /api/workspaces {path, allow?}` and `DELETE /api/workspaces/:id`
// (docs/api.md "Workspaces").
import type { ForgetWorkspaceResponse, WorkspaceResponse, WorkspacesResponse } from '../../protocol.js';
import type { EngineSource } from '../engine-source.js';
import { HttpError } from '../errors.js';
import { objectBody, optionalBoolean, requiredString } from '../validate.js';

export const WORKSPACES_PATH = '/api/workspaces';

export function listWorkspaces(source: EngineSource): WorkspacesResponse {
  return { workspaces: source.list() };
}

export function registerWorkspace(source: EngineSource, body: unknown): WorkspaceResponse {
  const fields = objectBody(body);
  const target = requiredString(fields, 'path', { allowEmpty: false });
  if (!target.startsWith('/')) throw new HttpError('BAD_REQUEST', 'path must be absolute');
  const allow = optionalBoolean(fields, 'allow') === true;
  try {
    return { workspace: source.register(target, { allow }) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'WORKSPACE_REFUSED') {
      throw new HttpError('WORKSPACE_REFUSED', (error as Error).message, { path: target });
    }
    throw error;
  }
}

/** `DELETE /api/workspaces/:id[?deleteStore=true]`: the workspace forgotten, its store kept unless asked. */
export async function forgetWorkspace(
  source: EngineSource,
  workspaceId: string,
  query: URLSearchParams,
): Promise<ForgetWorkspaceResponse> {
  const deleteStore = query.get('deleteStore');
  if (deleteStore !== null && deleteStore !== 'true' && deleteStore !== 'false')
    throw new HttpError('BAD_REQUEST', 'deleteStore must be true or false');
  if (!source.forget) throw new HttpError('CONFLICT', 'this server records one workspace only');
  const forgotten = await source.forget(workspaceId, { deleteStore: deleteStore === 'true' });
  return { ok: true, ...forgotten };
}

/** `/api/workspaces/<id>`'s id, or undefined for any other path. */
export function workspaceItemId(segments: string[]): string | undefined {
  return segments.length === 3 && segments[0] === 'api' && segments[1] === 'workspaces' && segments[2] !== ''
    ? segments[2]
    : undefined;
}

/** `/api/workspaces/<id>/<rest>` → the workspace and `/api/<rest>`; any other path is its own. */
export function splitWorkspacePath(segments: string[]): { workspaceId?: string; segments: string[] } {
  if (segments.length >= 4 && segments[0] === 'api' && segments[1] === 'workspaces' && segments[2] !== '') {
    return { workspaceId: segments[2], segments: ['api', ...segments.slice(3)] };
  }
  return { segments };
}
