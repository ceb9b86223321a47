// Seeds turns the way an agent does: through the agent API with the agent token.
import type {
  AgentExecEndResponse,
  AgentExecResponse,
  AgentInputResponse,
  AgentMessageResponse,
  AgentTurnEndResponse,
  Message,
  Role,
} from '../server/protocol';

export class AgentClient {
  constructor(
    private readonly origin: string,
    private readonly token: string,
  ) {}

  async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.origin}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.origin}${path}`, { headers: { Authorization: `Bearer ${this.token}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  input(sessionId: string, content: string, platform = 'webui', sessionType = 'chat') {
    return this.post<AgentInputResponse>('/api/agent/input', { sessionId, platform, sessionType, content });
  }
  message(sessionId: string, role: Exclude<Role, 'user'>, content: string) {
    return this.post<AgentMessageResponse>('/api/agent/message', { sessionId, role, content });
  }
  write(sessionId: string, path: string, content: string) {
    return this.post('/api/agent/fs/write', { sessionId, uri: `workspace:/${path}`, content });
  }
  remove(sessionId: string, path: string) {
    return this.post('/api/agent/fs/delete', { sessionId, uri: `workspace:/${path}` });
  }
  exec(sessionId: string, command: string, tool = 'exec') {
    return this.post<AgentExecResponse>('/api/agent/exec', { sessionId, tool, command });
  }
  execEnd(sessionId: string, execId: string) {
    return this.post<AgentExecEndResponse>('/api/agent/exec-end', { sessionId, execId });
  }
  turnEnd(sessionId: string) {
    return this.post<AgentTurnEndResponse>('/api/agent/turn-end', { sessionId });
  }

  /** One whole turn: the user's message, the agent's work, an assistant reply, the end. */
  async turn(
    sessionId: string,
    content: string,
    work: () => Promise<unknown> = async () => {},
    reply?: string,
  ): Promise<string> {
    const { turnId } = await this.input(sessionId, content);
    if (!turnId) throw new Error(`no turn began for ${sessionId}: is the platform inside the scopes?`);
    await work();
    if (reply) await this.message(sessionId, 'assistant', reply);
    await this.turnEnd(sessionId);
    return turnId;
  }

  async messagesOfTurn(sessionId: string, turnId: string): Promise<Message[]> {
    const answer = await this.get<{ messages: Message[] }>(
      `/api/sessions/${encodeURIComponent(sessionId)}/messages?turnId=${encodeURIComponent(turnId)}`,
    );
    return answer.messages;
  }
}
