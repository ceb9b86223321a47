// `GET /api/workspaces` and `POST /api/workspaces {path}` (docs/api.md "Workspaces").
import type { WorkspaceResponse, WorkspacesResponse } from '../../protocol.js';
import type { EngineSource } from '../engine-source.js';
import { HttpError } from '../errors.js';
import { objectBody, requiredString } from '../validate.js';

export const WORKSPACES_PATH = '/api/workspaces';

export function listWorkspaces(source: EngineSource): WorkspacesResponse {
  return { workspaces: source.list() };
}

export function registerWorkspace(source: EngineSource, body: unknown): WorkspaceResponse {
  const target = requiredString(objectBody(body), 'path', { allowEmpty: false });
  if (!target.startsWith('/')) throw new HttpError('BAD_REQUEST', 'path must be absolute');
  try {
    return { workspace: source.register(target) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'WORKSPACE_REFUSED') {
      throw new HttpError('WORKSPACE_REFUSED', (error as Error).message, { path: target });
    }
    throw error;
  }
}

/** `/api/workspaces/<id>/<rest>` → the workspace and `/api/<rest>`; any other path is its own. */
export function splitWorkspacePath(segments: string[]): { workspaceId?: string; segments: string[] } {
  if (segments.length >= 4 && segments[0] === 'api' && segments[1] === 'workspaces' && segments[2] !== '') {
    return { workspaceId: segments[2], segments: ['api', ...segments.slice(3)] };
  }
  return { segments };
}
