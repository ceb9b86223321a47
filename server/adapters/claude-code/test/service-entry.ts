// Writes what a running service leaves in the state dir for the hooks: service.json (one line,
// as the service writes it) and the agent token file.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
