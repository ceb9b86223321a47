// The path each host's hook posts its raw events to (docs/api.md): the hook processes import
// this alone, not the route, so they load nothing of the server.
export const HOOK_ROUTE_PATTERN = '/api/agent/hook/:host';
export const hookPathOf = (host: string): string => `/api/agent/hook/${host}`;
