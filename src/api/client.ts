// The console's only door to the server: same-origin fetch with the session key of a service that
// proved it holds the token (handshake.ts) as a Bearer header, and every non-2xx JSON answer
// becomes an ApiError carrying the contract's code.
import type { ErrorBody, ErrorCode } from '../../server/protocol';
import { forgetSessionKey, HandshakeError, sessionKey } from './handshake';

/**
 * `NETWORK` marks a request that never got an answer (server down); `RESTARTED_ELSEWHERE` one
 * never sent, since the service on this port did not prove it holds the token.
 */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'BAD_RESPONSE' | 'RESTARTED_ELSEWHERE';

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: ApiErrorCode, status: number, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
  }

  /** Paths changed since the turn, on a 409 CONFLICT. */
  get conflicts(): string[] {
    const list = this.details.conflicts;
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  }
}

export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy page, an empty body): the status alone must tell the story.
  }
  const error = (body as ErrorBody | null)?.error;
  if (error && typeof error.code === 'string') {
    const { code, message, ...details } = error;
    return new ApiError(code, response.status, message ?? code, details);
  }
  const fallback: ApiErrorCode =
    response.status === 401 ? 'UNAUTHORIZED' : response.status >= 500 ? 'INTERNAL' : 'BAD_RESPONSE';
  return new ApiError(fallback, response.status, `${response.status} ${response.statusText}`.trim());
}

function handshakeFailure(error: HandshakeError): ApiError {
  if (error.kind === 'network') return new ApiError('NETWORK', 0, error.message);
  if (error.kind === 'wrong-token') return new ApiError('UNAUTHORIZED', 401, error.message);
  return new ApiError('RESTARTED_ELSEWHERE', 0, error.message);
}

export async function apiRequest<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      headers.Authorization = `Bearer ${await sessionKey()}`;
    } catch (error) {
      throw error instanceof HandshakeError ? handshakeFailure(error) : error;
    }
    try {
      response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      // Whoever answers next is checked before it gets anything.
      forgetSessionKey();
      throw new ApiError('NETWORK', 0, cause instanceof Error ? cause.message : 'The server could not be reached');
    }
    // The key names one run of the service: after a restart on this port, a new handshake, once.
    if (response.status === 401 && attempt === 0) {
      forgetSessionKey();
      continue;
    }
    if (!response.ok) throw await errorFromResponse(response);
    try {
      return (await response.json()) as T;
    } catch {
      throw new ApiError('BAD_RESPONSE', response.status, 'The server answered with something that is not JSON');
    }
  }
}

export const apiGet = <T>(path: string) => apiRequest<T>('GET', path);
export const apiPost = <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body);

/** Builds `/api/...?a=1` leaving out undefined parameters. */
export function apiPath(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
