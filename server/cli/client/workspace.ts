// The cwd's workspace in the service, and its console routes under `/api/workspaces/:id/…`.
import path from 'node:path';
import type {
  DiffResponse, ManifestResponse, Plan, PreviewRequest, RewindPreviewRequest, RewindRequest, RollbackRequest,
  RollbackResult, Session, SessionsResponse, Turn, TurnsResponse, Uri, Workspace, WorkspaceResponse, WorkspacesResponse,
} from '../../protocol.js';
import { ServiceApi } from './api.js';
import type { ServiceAddress } from './service.js';

export type WorkspaceInfo = Pick<Workspace, 'id' | 'root'> & Partial<Workspace>;

export class WorkspaceClient {
  private readonly prefix: string;

  constructor(private readonly api: ServiceApi, readonly workspace: WorkspaceInfo) {
    this.prefix = `/api/workspaces/${encodeURIComponent(workspace.id)}`;
  }

  private get<T>(route: string): Promise<T> {
    return this.api.call<T>('GET', `${this.prefix}${route}`);
  }

  private post<T>(route: string, body: unknown): Promise<T> {
    return this.api.call<T>('POST', `${this.prefix}${route}`, body);
  }

  async sessions(): Promise<Session[]> {
    return (await this.get<SessionsResponse>('/sessions')).sessions;
  }

  /** The newest `limit` turns of the session (all when absent), oldest first. */
  async turns(sessionId: string, limit?: number): Promise<Turn[]> {
    const query = limit === undefined ? '' : `?limit=${limit}`;
    return (await this.get<TurnsResponse>(`/sessions/${encodeURIComponent(sessionId)}/turns${query}`)).turns;
  }

  manifest(turnId: string): Promise<ManifestResponse> {
    return this.get(`/turns/${encodeURIComponent(turnId)}`);
  }

  diff(turnId: string, uri: Uri): Promise<DiffResponse> {
    return this.get(`/turns/${encodeURIComponent(turnId)}/diff?uri=${encodeURIComponent(uri)}`);
  }

  preview(turnId: string, body: PreviewRequest): Promise<Plan> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/preview`, body);
  }

  rollback(turnId: string, body: RollbackRequest): Promise<RollbackResult> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/rollback`, body);
  }

  rollbackWithChat(turnId: string, force: boolean): Promise<RollbackResult> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/rollback-with-chat`, { force });
  }

  previewRewind(sessionId: string, body: RewindPreviewRequest): Promise<Plan> {
    return this.post(`/sessions/${encodeURIComponent(sessionId)}/rewind/preview`, body);
  }

  rewind(sessionId: string, body: RewindRequest): Promise<RollbackResult> {
    return this.post(`/sessions/${encodeURIComponent(sessionId)}/rewind`, body);
  }
}

const holds = (root: string, dir: string) => dir === root || dir.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);

/**
 * The workspace holding `cwd`: the deepest registered one whose root holds it, so a command run
 * in a sub-folder addresses the workspace the agent recorded (not a new one for the sub-folder);
 * else the service's answer to `POST /api/workspaces {path: cwd}` (its git top level or itself,
 * registered; refused for `/`, $HOME itself, a system folder).
 */
export async function openWorkspace(address: ServiceAddress, cwd: string): Promise<WorkspaceClient> {
  const api = new ServiceApi(address);
  const { workspaces } = await api.call<WorkspacesResponse>('GET', '/api/workspaces');
  const holding = workspaces.filter((candidate) => holds(candidate.root, cwd)).sort((a, b) => b.root.length - a.root.length)[0];
  const workspace = holding ?? (await api.call<WorkspaceResponse>('POST', '/api/workspaces', { path: cwd })).workspace;
  return new WorkspaceClient(api, workspace);
}
