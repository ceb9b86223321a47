// Writes what a running service leaves in the state dir for the hooks: service.json (one line,
// as the service writes it) and the agent token file; and puts a stand-in on its socket.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';

export async function writeServiceFiles(
  stateHome: string,
  fields: { port: number; pid?: number; agentToken?: string },
): Promise<void> {
  const dir = join(stateHome, 'turnback');
  await mkdir(dir, { recursive: true });
  const entry = {
    pid: fields.pid ?? process.pid,
    port: fields.port,
    version: '0.0.0-test',
    startedAt: new Date().toISOString(),
    url: `http://127.0.0.1:${fields.port}/`,
  };
  await writeFile(join(dir, 'service.json'), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  if (fields.agentToken !== undefined)
    await writeFile(join(dir, 'agent-token'), `${fields.agentToken}\n`, { mode: 0o600 });
}

/** Where the hooks reach the service: `service.sock` of the state dir under `stateHome`. */
export function serviceSocketOf(stateHome: string): string {
  return join(stateHome, 'turnback', 'service.sock');
}

/** Makes `server` (a stand-in for the service) the one listening on the state dir's socket. */
export async function listenOnServiceSocket(server: Server, stateHome: string): Promise<void> {
  const socket = serviceSocketOf(stateHome);
  await mkdir(dirname(socket), { recursive: true, mode: 0o700 });
  await rm(socket, { force: true });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
}
