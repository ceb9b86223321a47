// A fetch stand-in for component tests: routes by method and path, records every call.
import { createHmac } from 'node:crypto';
import { vi } from 'vitest';
import { TEST_TOKEN } from './render';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status?: number; body: unknown } | (() => never);
export type Route = (call: Call) => Answer | undefined;

export function json(body: unknown, status = 200): Answer {
  return { status, body };
}

export function apiError(code: string, status: number, extra: Record<string, unknown> = {}): Answer {
  return { status, body: { error: { code, message: `${code} from the test`, ...extra } } };
}

/** Installs a fetch that answers from `routes` (first match wins) and returns the call log. */
export function mockFetch(routes: Record<string, Answer | ((call: Call) => Answer)>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://127.0.0.1:4820');
    const method = init.method ?? 'GET';
    const call: Call = {
      method,
      path: url.pathname + url.search,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    for (const [pattern, answer] of Object.entries(routes)) {
      const [routeMethod, routePath] = pattern.split(' ');
      if (routeMethod !== method || !matches(routePath, url.pathname)) continue;
      const resolved = typeof answer === 'function' ? answer(call) : answer;
      if (typeof resolved === 'function') resolved();
      const { status = 200, body } = resolved as { status?: number; body: unknown };
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }
    // The handshake a tab makes again after a lost stream: answered as the service holding TEST_TOKEN.
    if (method === 'GET' && url.pathname === '/api/hello') return Response.json(hello(url.searchParams.get('nonce')!));
    return new Response(
      JSON.stringify({ error: { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` } }),
      { status: 404 },
    );
  });
  return calls;
}

function hello(nonce: string): { proof: string; salt: string; sessionProof: string } {
  const mac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('base64url');
  const port = window.location.port || '80';
  const salt = 'salt-of-the-test-service';
  const key = mac(TEST_TOKEN, `turnback-session|${port}|${salt}`);
  return {
    proof: mac(TEST_TOKEN, `turnback-server|${port}|${nonce}`),
    salt,
    sessionProof: mac(key, `turnback-server|${port}|${nonce}`),
  };
}

/** `/api/turns/*` matches one path segment per `*`. */
function matches(pattern: string, path: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
  return regex.test(path);
}

export function networkDown(): void {
  vi.stubGlobal('fetch', async () => {
    throw new TypeError('Failed to fetch');
  });
}
