// `turnback forget <workspace> [--delete-store] [--json]`: the service stops recording a
// workspace (named by its id or its root): its engine is closed, it leaves the registry and
// its sessions' mappings; its store stays in the state dir unless --delete-store.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ErrorBody, ForgetWorkspaceResponse, WorkspacesResponse } from '../protocol.js';
import { requestJson } from './client/http.js';
import { getJson, liveConsole, NO_SERVICE, type ConsoleTarget } from './service-client.js';

const USAGE_LINE = 'usage: turnback forget <workspace id or path> [--delete-store] [--json]';

/** The registered workspace `name` names: its id, else the real path of its root. */
function idOf(name: string, workspaces: WorkspacesResponse['workspaces']): string | undefined {
  const byId = workspaces.find((workspace) => workspace.id === name);
  if (byId) return byId.id;
  let real = path.resolve(name);
  try {
    real = realpathSync(real);
  } catch {
    /* a root that is gone is still named by its path */
  }
  return workspaces.find((workspace) => workspace.root === real || workspace.root === path.resolve(name))?.id;
}

async function forget(
  target: ConsoleTarget,
  id: string,
  deleteStore: boolean,
): Promise<{ status: number; body: unknown }> {
  // Over the service's socket: the console token never goes to a TCP port.
  const answer = await requestJson(
    target.socketPath,
    'DELETE',
    `/api/workspaces/${encodeURIComponent(id)}${deleteStore ? '?deleteStore=true' : ''}`,
    target.token,
    undefined,
    30_000,
  );
  return { status: answer.status, body: answer.json };
}

function fail(json: boolean, code: number, error: { code: string; message: string }): number {
  if (json) process.stdout.write(`${JSON.stringify({ error })}\n`);
  else process.stderr.write(`turnback forget: ${error.message}\n`);
  return code;
}

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const deleteStore = args.includes('--delete-store');
  const names = args.filter((arg) => arg !== '--json' && arg !== '--delete-store');
  if (names.length !== 1 || names[0].startsWith('-')) return fail(json, 2, { code: 'USAGE', message: USAGE_LINE });
  const target = liveConsole();
  if (!target) return fail(json, 2, { code: 'NO_SERVICE', message: NO_SERVICE });
  const { workspaces } = await getJson<WorkspacesResponse>(target, '/api/workspaces');
  const id = idOf(names[0], workspaces);
  if (id === undefined)
    return fail(json, 2, {
      code: 'WORKSPACE_NOT_FOUND',
      message: `no workspace ${names[0]} is registered (turnback status lists them)`,
    });
  const answer = await forget(target, id, deleteStore);
  if (answer.status !== 200) {
    const error = (answer.body as ErrorBody).error ?? { code: 'INTERNAL', message: `answered ${answer.status}` };
    // An active turn is a refusal (1); anything else the service answers is an error (2).
    return fail(json, answer.status === 409 ? 1 : 2, error);
  }
  if (json) process.stdout.write(`${JSON.stringify(answer.body)}\n`);
  const { workspace, storeDeleted } = answer.body as ForgetWorkspaceResponse;
  if (!json)
    process.stdout.write(
      `Forgot ${workspace.root} (${workspace.id}): turnback no longer records it; ${
        storeDeleted ? 'its store was deleted' : 'its store is kept in the state dir (--delete-store deletes it)'
      }\n`,
    );
  return 0;
}
