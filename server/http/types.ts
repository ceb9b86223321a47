// The shapes route handlers see: plain data in, plain data out, no sockets, so every handler
// can be called directly in a unit test.
import type { Engine } from '../engine/api.js';

export interface ApiRequest {
  /** Path parameters, already percent-decoded (`:sessionId`, `:turnId`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body of a POST (`{}` when empty); `{}` for other methods. */
  body: unknown;
}

export interface ApiResponse<Res> {
  /** Defaults to 200. */
  status?: number;
  body: Res;
}

export interface RouteDeps {
  engine: Engine;
  version: string;
  /** Another workspace's engine, for a turn's linked turns (Turn.linked); released when done. Absent: one engine only. */
  otherEngine?: (workspaceId: string) => Promise<{ engine: Engine; release?: () => void }>;
  /** An agent request's session's other workspaces' engines (a session that moved), held until the request ends. */
  sessionEngines?: () => Promise<Engine[]>;
}

/** A handler answers its route's shape from protocol.ts: the compiler checks every answer against the contract. */
export type RouteHandler<Res> = (request: ApiRequest, deps: RouteDeps) => Promise<ApiResponse<Res>> | ApiResponse<Res>;

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** Segments; a segment starting with `:` is a parameter, e.g. `/api/turns/:turnId`. */
  pattern: string;
  handler: RouteHandler<unknown>;
}
