// The service's console routes as the terminal uses them: JSON over its socket with the console
// token, every workspace route under `/api/workspaces/:workspaceId/…` (docs/api.md "Workspaces").
import { apiFailure, noService } from './errors.js';
import { requestJson, type JsonAnswer } from './http.js';
import type { ServiceAddress } from './service.js';

const REQUEST_TIMEOUT_MS = 120_000;

export class ServiceApi {
  constructor(readonly address: ServiceAddress) {}

  async call<T>(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<T> {
    let answer: JsonAnswer;
    try {
      answer = await requestJson(this.address.socketPath, method, route, this.address.token, body, REQUEST_TIMEOUT_MS);
    } catch (err) {
      throw noService(`the turnback service at ${this.address.origin} did not answer: ${(err as Error).message}`);
    }
    if (answer.status < 200 || answer.status >= 300) throw apiFailure(answer.status, answer.json);
    return answer.json as T;
  }
}
