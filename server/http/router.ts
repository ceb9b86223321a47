// Matches a request path against the route table, telling "no such route" (404) apart from
// "route exists, other method" (405).
import { HttpError } from './errors.js';
import type { Route } from './types.js';

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/** Splits a raw path into percent-decoded segments; a malformed escape is a 400. */
export function decodeSegments(rawPath: string): string[] {
  return rawPath
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new HttpError('BAD_REQUEST', 'malformed percent-encoding in the path');
      }
    });
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/').slice(1);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.startsWith(':')) {
      if (segments[i].length === 0) return null;
      params[part.slice(1)] = segments[i];
    } else if (part !== segments[i]) {
      return null;
    }
  }
  return params;
}

export function matchRoute(routes: readonly Route[], method: string, segments: string[]): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}
