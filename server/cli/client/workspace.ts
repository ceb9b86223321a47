// The cwd's workspace in the service, and its console routes under `/api/workspaces/:id/…`.
import type {
  Comparison,
  DiffResponse,
  DiffsResponse,
  OkResponse,
  OnConflict,
  Pin,
  PinResponse,
  PinsResponse,
  Step,
  StepsResponse,
  ManifestResponse,
  Plan,
  PreviewRequest,
  RewindPreviewRequest,
  RewindRequest,
  RollbackRequest,
  RollbackResult,
  Session,
  SessionsResponse,
  SetBudgetResponse,
  StoreBudget,
  StoreStats,
  Turn,
  TurnsResponse,
  Uri,
  Workspace,
  WorkspaceResponse,
} from '../../protocol.js';
import { ServiceApi } from './api.js';
import type { ServiceAddress } from './service.js';

export type WorkspaceInfo = Pick<Workspace, 'id' | 'root'> & Partial<Workspace>;

export class WorkspaceClient {
  private readonly prefix: string;

  constructor(
    private readonly api: ServiceApi,
    readonly workspace: WorkspaceInfo,
  ) {
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

  /** Several paths' diffs in one request (DIFFS_PER_REQUEST at most), in the order given. */
  async diffs(turnId: string, uris: Uri[]): Promise<DiffResponse[]> {
    const query = uris.map((uri) => `uri=${encodeURIComponent(uri)}`).join('&');
    return (await this.get<DiffsResponse>(`/turns/${encodeURIComponent(turnId)}/diffs?${query}`)).diffs;
  }

  preview(turnId: string, body: PreviewRequest): Promise<Plan> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/preview`, body);
  }

  rollback(turnId: string, body: RollbackRequest): Promise<RollbackResult> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/rollback`, body);
  }

  rollbackWithChat(turnId: string, force: boolean, onConflict?: OnConflict): Promise<RollbackResult> {
    return this.post(`/turns/${encodeURIComponent(turnId)}/rollback-with-chat`, { force, onConflict });
  }

  async steps(turnId: string): Promise<Step[]> {
    return (await this.get<StepsResponse>(`/turns/${encodeURIComponent(turnId)}/steps`)).steps;
  }

  async pins(): Promise<Pin[]> {
    return (await this.get<PinsResponse>('/pins')).pins;
  }

  async pin(name: string | undefined): Promise<Pin> {
    return (await this.post<PinResponse>('/pins', name === undefined ? {} : { name })).pin;
  }

  unpin(turnId: string): Promise<OkResponse> {
    return this.api.call('DELETE', `${this.prefix}/pins/${encodeURIComponent(turnId)}`);
  }

  store(): Promise<StoreStats> {
    return this.get('/store');
  }

  /** Sets the workspace's own store budget in bytes; null: back to the service's or the default. */
  async setBudget(bytes: number | null): Promise<StoreBudget> {
    return (await this.post<SetBudgetResponse>('/budget', { bytes })).budget;
  }

  compare(from: string, to: string): Promise<Comparison> {
    return this.get(`/compare?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  }

  compareDiff(from: string, to: string, uri: Uri): Promise<DiffResponse> {
    return this.get(
      `/compare/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&uri=${encodeURIComponent(uri)}`,
    );
  }

  previewRewind(sessionId: string, body: RewindPreviewRequest): Promise<Plan> {
    return this.post(`/sessions/${encodeURIComponent(sessionId)}/rewind/preview`, body);
  }

  rewind(sessionId: string, body: RewindRequest): Promise<RollbackResult> {
    return this.post(`/sessions/${encodeURIComponent(sessionId)}/rewind`, body);
  }
}

/**
 * The workspace holding `cwd`: the service answers the deepest registered workspace holding it
 * (so a command in a sub-folder addresses the workspace its agent recorded), else its git top
 * level or the cwd itself, registered; refused for `/`, $HOME itself, a system folder.
 */
export async function openWorkspace(address: ServiceAddress, cwd: string): Promise<WorkspaceClient> {
  const api = new ServiceApi(address);
  const { workspace } = await api.call<WorkspaceResponse>('POST', '/api/workspaces', { path: cwd });
  return new WorkspaceClient(api, workspace);
}
