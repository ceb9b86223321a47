// Finds the user's one service (docs/api.md "The service"): `service.json` and `console-token`
// in the state dir. When none answers, runs `turnback start` (the same bin, as a subprocess) and
// reads them again, so a terminal command works whether or not a hook started the service first.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { turnbackStateDir } from '../../state-dir.js';
import { noService } from './errors.js';

export interface ServiceAddress {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  token: string;
}

const HEALTH_TIMEOUT_MS = 1_500;
const START_TIMEOUT_MS = 15_000;

async function readAddress(env: NodeJS.ProcessEnv): Promise<ServiceAddress | undefined> {
  const dir = turnbackStateDir(env);
  try {
    const service = JSON.parse(await readFile(path.join(dir, 'service.json'), 'utf8')) as { port?: unknown };
    const token = (await readFile(path.join(dir, 'console-token'), 'utf8')).trim();
    if (typeof service.port !== 'number' || !Number.isInteger(service.port) || token === '') return undefined;
    return { origin: `http://127.0.0.1:${service.port}`, token };
  } catch {
    return undefined;
  }
}

/** True when the address answers `/api/health` with this token (a stale service.json does not). */
async function answers(address: ServiceAddress): Promise<boolean> {
  try {
    const response = await fetch(`${address.origin}/api/health`, {
      headers: { Authorization: `Bearer ${address.token}` },
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
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
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** The live service's address; `bin` is how to run `turnback` itself when one must be started. */
export async function connectService(env: NodeJS.ProcessEnv, bin: readonly string[]): Promise<ServiceAddress> {
  const known = await readAddress(env);
  if (known && (await answers(known))) return known;
  const start = await runStart(bin, env);
  const started = start.code === 0 ? await readAddress(env) : undefined;
  if (started && (await answers(started))) return started;
  const why = start.stderr.trim().split('\n')[0] || (start.code === 0 ? 'it wrote no service.json' : `exit code ${start.code}`);
  throw noService(`no turnback service is running and turnback start failed: ${why}`);
}
