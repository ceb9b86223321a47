// The request checks of docs/api.md "Security", in its order: Host, Origin, then the token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from './errors.js';

export type Access = 'console' | 'agent';

export interface Tokens {
  console: string;
  agent: string;
  /** The console's session key for this run and port (tokens.ts `sessionKey`): opens what the console token opens. */
  session?: string;
}

/** Host allow-list: DNS rebinding sends a foreign name with our address. */
export function checkHost(headers: IncomingHttpHeaders, port: number): string {
  const host = (headers.host ?? '').toLowerCase();
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowed.includes(host)) throw new HttpError('FORBIDDEN', 'this Host is not allowed');
  return host;
}

/** A request carrying an Origin must come from this very server (`Origin: null` never does). */
export function checkOrigin(headers: IncomingHttpHeaders, host: string): void {
  const origin = headers.origin;
  if (origin === undefined) return;
  if (origin.toLowerCase() !== `http://${host}`) throw new HttpError('FORBIDDEN', 'this Origin is not allowed');
}

/**
 * The credential a request presents: the Bearer header, or, on the event stream only (an
 * EventSource cannot set headers), `?session=` (the console's session key) or `?token=`. Never a
 * cookie: a browser sends 127.0.0.1 cookies to every local port, so any dev server an agent
 * starts would receive it.
 */
export function presentedToken(
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
  queryTokenAllowed: boolean,
): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return match ? match[1] : undefined;
  }
  return queryTokenAllowed ? (query.get('session') ?? query.get('token') ?? undefined) : undefined;
}

/** Compares digests so neither the content nor the length of a token leaks through timing. */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Which token a path needs at least: the agent token opens only /api/agent/* and /api/health. */
export function accessFor(pathname: string): Access {
  return pathname === '/api/health' || pathname.startsWith('/api/agent/') ? 'agent' : 'console';
}

/** Which token the request holds; the console token wins when both are the same. */
export type Holder = 'console' | 'agent';

export function checkToken(given: string | undefined, access: Access, tokens: Tokens): Holder {
  if (given !== undefined) {
    // Every comparison always runs, so the answer time does not tell which token matched.
    const isConsole = sameToken(given, tokens.console);
    const isSession = tokens.session !== undefined && sameToken(given, tokens.session);
    const isAgent = sameToken(given, tokens.agent);
    if (isConsole || isSession) return 'console';
    if (access === 'agent' && isAgent) return 'agent';
  }
  throw new HttpError(
    'UNAUTHORIZED',
    given === undefined ? 'a token is required' : 'this token does not open this route',
  );
}
