// Where an agent request runs, for choosing its session's workspace: a host's hook event names
// its session and cwd in the host's own fields; the agent API's bodies may carry `cwd`. The fs
// routes write where they are told, so they never bring a new workspace.
import type { AgentPlace } from './engine-source.js';

const HOST_HOOK_PREFIX = '/api/agent/hook/';
const FS_PREFIX = '/api/agent/fs/';

export function isHostHookRoute(pattern: string): boolean {
  return pattern.startsWith(HOST_HOOK_PREFIX);
}

function stringField(fields: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/** How a host's adapter reads a raw hook event's session and folder (the CLI wires the adapters' own). */
export type HookPlaceReader = (host: string, raw: unknown) => { sessionId: string; cwd: string } | null;

export function agentPlaceOf(
  pattern: string,
  params: Record<string, string>,
  body: unknown,
  query: URLSearchParams,
  readHookPlace?: HookPlaceReader,
): AgentPlace {
  const fields =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const cwdRaw = stringField(fields, 'cwd');
  const cwd = cwdRaw !== undefined && cwdRaw.startsWith('/') ? cwdRaw : undefined;
  if (isHostHookRoute(pattern)) {
    const host = params.host ?? pattern.slice(HOST_HOOK_PREFIX.length);
    // The host's own reading first (Cursor names its folder workspace_roots), else the common fields.
    const read = readHookPlace?.(host, body);
    if (read) return { sessionKey: `${host}:${read.sessionId}`, cwd: read.cwd.startsWith('/') ? read.cwd : undefined };
    const session = stringField(fields, 'session_id', 'sessionId', 'sessionID');
    return { sessionKey: session === undefined ? undefined : `${host}:${session}`, cwd };
  }
  const session = stringField(fields, 'sessionId') ?? query.get('sessionId') ?? undefined;
  return {
    sessionKey: session === undefined ? undefined : `agent:${session}`,
    cwd,
    ...(pattern.startsWith(FS_PREFIX) ? { registers: false } : {}),
  };
}
