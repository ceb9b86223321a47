// The service's console routes as the terminal uses them: JSON over loopback with the console
// token, every workspace route under `/api/workspaces/:workspaceId/…` (docs/api.md "Workspaces").
import { apiFailure, noService } from './errors.js';
import type { ServiceAddress } from './service.js';

const REQUEST_TIMEOUT_MS = 120_000;

export class ServiceApi {
  constructor(readonly address: ServiceAddress) {}

  async call<T>(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.address.origin}${route}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.address.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw noService(`the turnback service at ${this.address.origin} did not answer: ${(err as Error).message}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) throw apiFailure(response.status, json);
    return json as T;
  }
}
