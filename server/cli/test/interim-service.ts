// A stand-in for the user's service in the terminal's tests: one real engine and the real HTTP
// server, plus the workspace routes of docs/api.md ("Workspaces": `POST /api/workspaces` and every
// console route under `/api/workspaces/:workspaceId/…`), with service.json and the token files
// written to the state dir as the service writes them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openEngine } from '../../engine/index.js';
import { ROUTES } from '../../http/routes/index.js';
import { startServer } from '../../http/server.js';
import type { Route } from '../../http/types.js';
import { turnbackStateDir } from '../../state-dir.js';

export const WORKSPACE_ID = 'workspace-0123456789ab';
const CONSOLE_TOKEN = 'c'.repeat(64);
const AGENT_TOKEN = 'a'.repeat(64);

export interface TestService {
  port: number;
  /** POSTs to an agent route with the agent token. */
  agent(route: string, body: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

function workspaceRoutes(root: string, dataDir: string): Route[] {
  const info = { id: WORKSPACE_ID, root, name: path.basename(root), recording: true, open: true, sessions: 0, storeBytes: 0, isDefault: true };
  const register: Route = {
    method: 'POST',
    pattern: '/api/workspaces',
    handler: ({ body }) => {
      const wanted = (body as { path?: unknown }).path;
      if (typeof wanted === 'string' && (wanted === root || wanted.startsWith(`${root}${path.sep}`)) && !wanted.startsWith(dataDir)) return { body: { workspace: info } };
      return { status: 400, body: { error: { code: 'WORKSPACE_REFUSED', message: `${String(wanted)} is not a workspace this service records` } } };
    },
  };
  const prefixed = ROUTES.filter((route) => !route.pattern.startsWith('/api/agent/') && route.pattern !== '/api/health').map((route): Route => ({
    method: route.method,
    pattern: `/api/workspaces/:workspaceId${route.pattern.slice('/api'.length)}`,
    handler: (request, deps) => request.params.workspaceId === WORKSPACE_ID
      ? route.handler(request, deps)
      : { status: 404, body: { error: { code: 'WORKSPACE_NOT_FOUND', message: `no workspace ${request.params.workspaceId}` } } },
  }));
  return [register, ...prefixed];
}

export async function startTestService(workspace: string, base: string, env: NodeJS.ProcessEnv): Promise<TestService> {
  const dataDir = path.join(base, 'data');
  const engine = await openEngine({ workspace, dataDir, scopes: ['webui:*', 'claude-code:*'], log: () => {} });
  const server = await startServer({
    engine, port: 0, token: CONSOLE_TOKEN, agentToken: AGENT_TOKEN, routes: workspaceRoutes(workspace, dataDir),
    distDir: base, log: { error: () => {} },
  });
  const state = turnbackStateDir(env);
  await mkdir(state, { recursive: true });
  const url = `http://127.0.0.1:${server.port}/`;
  await writeFile(path.join(state, 'service.json'), JSON.stringify({ pid: process.pid, port: server.port, version: '0', startedAt: new Date().toISOString(), url }), { mode: 0o600 });
  await writeFile(path.join(state, 'console-token'), `${CONSOLE_TOKEN}\n`, { mode: 0o600 });
  await writeFile(path.join(state, 'agent-token'), `${AGENT_TOKEN}\n`, { mode: 0o600 });
  return {
    port: server.port,
    agent: async (route, body) => {
      const response = await fetch(`${url}api/agent/${route}`, {
        method: 'POST', headers: { Authorization: `Bearer ${AGENT_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ cwd: workspace, ...body }),
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    close: async () => {
      await server.close();
      await engine.close();
    },
  };
}
