// Finds the user's one service (docs/api.md "State dir"): `service.json` (its pid alive),
// `console-token` and `service.sock`, checked by `/api/health` over the socket. When none answers, runs `turnback start` (the same
// bin, as a subprocess) and reads them again, so a terminal command works whether or not a hook
// started the service first.
import { spawn } from 'node:child_process';
import { readLiveService, serviceSocketPath } from '../../service/service-file.js';
import { readStateToken } from '../../service/spawn-service.js';
import { noService } from './errors.js';
import { requestJson } from './http.js';

export interface ServiceAddress {
  /** Where requests go: the service's Unix socket, never its TCP port. */
  socketPath: string;
  port: number;
  /** `http://127.0.0.1:<port>` (no trailing slash), for messages. */
  origin: string;
  token: string;
}

// A service that is not running fails at once (nothing on the socket); this only bounds one that is
// busy, which a loaded machine can keep past a second and a half (then the CLI said none ran).
const HEALTH_TIMEOUT_MS = 5_000;
/** `turnback start` waits up to 10 s for the service (START_WAIT_MS); this bounds the whole run. */
const START_TIMEOUT_MS = 20_000;

function readAddress(env: NodeJS.ProcessEnv): ServiceAddress | undefined {
  const entry = readLiveService(env);
  const token = readStateToken('consoleToken', env);
  return entry && token
    ? { socketPath: serviceSocketPath(env), port: entry.port, origin: `http://127.0.0.1:${entry.port}`, token }
    : undefined;
}

/** True when the address answers `/api/health` with this token (a stale service.json does not). */
async function answers(address: ServiceAddress): Promise<boolean> {
  try {
    return (
      (await requestJson(address.socketPath, 'GET', '/api/health', address.token, undefined, HEALTH_TIMEOUT_MS))
        .status === 200
    );
  } catch {
    return false;
  }
}

/** `turnback start` from this same bin (under the same loader flags, e.g. tsx in the tests). */
function runStart(bin: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const [command, ...args] = bin;
    const child = spawn(command, [...args, 'start'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: START_TIMEOUT_MS,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** The live service's address; `bin` is how to run `turnback` itself when one must be started. */
export async function connectService(env: NodeJS.ProcessEnv, bin: readonly string[]): Promise<ServiceAddress> {
  const known = readAddress(env);
  if (known && (await answers(known))) return known;
  const start = await runStart(bin, env);
  const started = start.code === 0 ? readAddress(env) : undefined;
  if (started && (await answers(started))) return started;
  const why =
    start.stderr
      .trim()
      .split('\n')
      .pop()
      ?.replace(/^turnback: /, '') ||
    (start.code === 0 ? 'it does not answer with the console token of the state dir' : `exit code ${start.code}`);
  throw noService(`no turnback service is running and turnback start failed: ${why}`);
}
