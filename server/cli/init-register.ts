// `turnback init`'s registration of the workspace with the person's service (started as the
// hook starts it), so its index is built in the background from now on, not by the agent's
// first command. The service owns its registry (workspaces.json) while it runs: the workspace
// is registered through it, `POST /api/workspaces`, never by writing the file under it.
import type { WorkspaceResponse } from '../protocol.js';
import { serviceSocketPath } from '../service/service-file.js';
import { ensureService, readStateToken } from '../service/spawn-service.js';
import { requestJson } from './client/http.js';

/** The line init prints: registered and building, or why not (the hooks are installed either way). */
export async function registerWithService(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { allow?: boolean } = {},
): Promise<string> {
  const later = "its index is built when the agent's first hook starts the service";
  const service = await ensureService(env);
  if ('error' in service) return `Not registered with the turnback service yet: ${service.error}; ${later}`;
  const token = readStateToken('consoleToken', env);
  if (!token) return `Not registered with the turnback service yet (no console token); ${later}`;
  try {
    // Over the service's socket: the console token never goes to a TCP port.
    const answer = await requestJson(
      serviceSocketPath(env),
      'POST',
      '/api/workspaces',
      token,
      { path: workspace, ...(options.allow ? { allow: true } : {}) },
      10_000,
    );
    const body = answer.json as WorkspaceResponse & { error?: { message?: string } };
    if (answer.status < 200 || answer.status >= 300)
      return `Not registered with the turnback service: ${body?.error?.message ?? answer.status}`;
    const { root, index } = body.workspace;
    const state =
      index?.state === 'whole'
        ? 'turnback already knows every file in it'
        : 'turnback is reading its files in the background';
    return `Registered ${root} with your turnback service (pid ${service.entry.pid}): ${state} (turnback status shows its progress)`;
  } catch (error) {
    return `Not registered with the turnback service yet: ${(error as Error).message}; ${later}`;
  }
}
