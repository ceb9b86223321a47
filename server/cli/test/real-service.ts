// The user's service as a real process for the terminal's tests: `turnback serve --port 0` with a
// temp state dir and HOME, found through service.json as every client finds it; agent calls go
// through the agent routes with the kept agent token and the workspace as their cwd, each
// workspace registered first with the console token, as `turnback init` does (a plain temp folder
// outside HOME is not one an agent's event may register by itself).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readLiveService } from '../../service/service-file.js';
import { readStateToken } from '../../service/spawn-service.js';
import { TEST_BIN } from './run-terminal.js';

export interface TestService {
  env: NodeJS.ProcessEnv;
  port: number;
  /** POSTs to `/api/agent/<route>` with the agent token and `cwd` (the session's workspace). */
  agent(route: string, body: Record<string, unknown>, cwd: string): Promise<any>;
  close(): Promise<void>;
}

const START_BOUND_MS = 30_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startRealService(base: string): Promise<TestService> {
  const env = { XDG_STATE_HOME: path.join(base, 'state'), HOME: path.join(base, 'home') };
  await mkdir(env.HOME, { recursive: true });
  const [command, ...args] = TEST_BIN;
  const child: ChildProcess = spawn(command, [...args, 'serve', '--port', '0'], {
    env: { ...process.env, ...env, TURNBACK_TOKEN: '', TURNBACK_AGENT_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + START_BOUND_MS;
  let entry = readLiveService(env);
  while (entry === null || entry.pid !== child.pid) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start: ${stderr}`);
    await pause(25);
    entry = readLiveService(env);
  }
  const port = entry.port;
  const agentToken = readStateToken('agentToken', env);
  const consoleToken = readStateToken('consoleToken', env);
  const registered = new Set<string>();
  const register = async (cwd: string) => {
    if (registered.has(cwd)) return;
    const response = await fetch(`http://127.0.0.1:${port}/api/workspaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${consoleToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: cwd }),
    });
    if (!response.ok) throw new Error(`registering ${cwd}: ${response.status} ${await response.text()}`);
    registered.add(cwd);
  };
  return {
    env,
    port,
    agent: async (route, body, cwd) => {
      await register(cwd);
      const response = await fetch(`http://127.0.0.1:${port}/api/agent/${route}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${agentToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ cwd, ...body }),
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
