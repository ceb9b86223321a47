// Starts the person's service detached (for `turnback start` and the hooks) and waits until it
// answers. Node built-ins only: the hook loads this. Of starters racing, the one holding the start
// claim spawns a service and the others wait for the same `service.json`; should two services
// still race (a `turnback serve` by hand), the lock lets one run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { closeSync, mkdirSync } from 'node:fs';
import { statePath, turnbackStateDir } from '../state-dir.js';
import { openPrivateLog, readPrivateFile } from './private-file.js';
import { isProcessAlive, readLiveService, type ServiceEntry } from './service-file.js';
import { claimStart } from './start-claim.js';

/** How long a starter waits for a new service to answer. */
export const START_WAIT_MS = 10_000;

/** The command that runs this very CLI again: the same node, loader flags and entry script. */
function cliCommand(): string[] {
  return [...process.execArgv, process.argv[1]];
}

/** `--port` for a started service: `TURNBACK_PORT` when set, else the default (4820, another when taken). */
function portArgs(env: NodeJS.ProcessEnv, port: number | undefined): string[] {
  if (port !== undefined) return ['--port', String(port)];
  const fromEnv = env.TURNBACK_PORT;
  return fromEnv !== undefined && /^[0-9]{1,5}$/.test(fromEnv) ? ['--port', fromEnv] : [];
}

/** `serveArgs`: more flags for `serve` (`turnback start --store-budget`). */
export function spawnService(
  env: NodeJS.ProcessEnv,
  port?: number,
  serveArgs: string[] = [],
): { exited: () => boolean } {
  mkdirSync(turnbackStateDir(env), { recursive: true, mode: 0o700 });
  const log = openPrivateLog(statePath('serviceLog', env));
  let exited = false;
  try {
    const child = spawn(process.execPath, [...cliCommand(), 'serve', ...portArgs(env, port), ...serveArgs], {
      detached: true,
      stdio: ['ignore', log, log],
      // More libuv threads than the default 4: a filesystem call stuck in one workspace (a hung
      // network mount) holds one thread, and must not hold up every other workspace's.
      env: { ...env, TURNBACK_TOKEN: '', TURNBACK_AGENT_TOKEN: '', UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? '16' },
      // Not the starter's cwd (a workspace someone may delete): the package's own folder, where
      // the entry's loader flags resolve.
      cwd: path.dirname(path.dirname(path.resolve(process.argv[1]))),
    });
    child.once('exit', () => {
      exited = true;
    });
    child.once('error', () => {
      exited = true;
    });
    child.unref();
  } finally {
    closeSync(log);
  }
  return { exited: () => exited };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a live process holds the service lock (a service starting, or running). */
function lockHeld(env: NodeJS.ProcessEnv): boolean {
  try {
    const { pid } = JSON.parse(readPrivateFile(statePath('lock', env))) as { pid?: unknown };
    return typeof pid === 'number' && pid > 0 && isProcessAlive(pid);
  } catch {
    return false;
  }
}

/**
 * The live service, waiting for one to appear until `deadline` (ms since epoch). Once the
 * service this starter spawned has exited (it lost the race, or failed), the wait goes on only
 * while another process holds the lock: the winner, still starting.
 */
export async function waitForService(
  env: NodeJS.ProcessEnv,
  deadline: number,
  gaveUp: () => boolean = () => false,
  stale?: ServiceEntry,
): Promise<ServiceEntry | null> {
  let exitedChecks = 0;
  for (;;) {
    const live = readLiveService(env);
    if (live && !(stale && live.pid === stale.pid && live.port === stale.port)) return live;
    // A few rounds' grace: the winner writes its lock file just after taking the lock.
    if (gaveUp() && ++exitedChecks > 20 && !lockHeld(env)) return null;
    if (Date.now() >= deadline) return null;
    await pause(10);
  }
}

/** Why no service answers; `late`: none answered in time, though one may still be starting. */
export interface StartFailure {
  error: string;
  late?: boolean;
}

/**
 * The live service, started when there is none; null with the reason when none answers in time.
 * Of many starters at once only the one holding the start claim spawns a service; the others wait
 * on that start, each until its own deadline (and claim in turn should that start fail).
 * `stale`: an entry whose process lives but does not answer (its pid taken by another process):
 * counted as no service.
 */
export async function ensureService(
  env: NodeJS.ProcessEnv,
  options: { waitMs?: number; port?: number; stale?: ServiceEntry; serveArgs?: string[] } = {},
): Promise<{ entry: ServiceEntry; started: boolean } | StartFailure> {
  const { stale } = options;
  const deadline = Date.now() + (options.waitMs ?? START_WAIT_MS);
  const usable = (): ServiceEntry | null => {
    const live = readLiveService(env);
    return live && !(stale && live.pid === stale.pid && live.port === stale.port) ? live : null;
  };
  for (;;) {
    const live = usable();
    if (live) return { entry: live, started: false };
    const claim = await claimStart(turnbackStateDir(env));
    if (claim) {
      try {
        return await startOne(env, deadline, options.port, stale, options.serveArgs);
      } finally {
        claim.release();
      }
    }
    if (Date.now() >= deadline)
      return { error: 'the turnback service did not start in time (another hook was starting it)', late: true };
    await pause(50);
  }
}

/** The claim's holder: spawns a service (unless one is already starting, holding the lock) and waits for it. */
async function startOne(
  env: NodeJS.ProcessEnv,
  deadline: number,
  port: number | undefined,
  stale: ServiceEntry | undefined,
  serveArgs?: string[],
): Promise<{ entry: ServiceEntry; started: boolean } | StartFailure> {
  let exited: () => boolean = () => true;
  if (stale || !lockHeld(env)) {
    try {
      exited = spawnService(env, port, serveArgs).exited;
    } catch (error) {
      return { error: `the turnback service could not be started: ${(error as Error).message}` };
    }
  }
  const entry = await waitForService(env, deadline, exited, stale);
  if (entry) return { entry, started: true };
  // Past the deadline it may still come up; before it, the service it waited for has exited.
  if (Date.now() >= deadline)
    return { error: `the turnback service did not start in time${lastLogLine(env)}`, late: true };
  return { error: `the turnback service did not start${lastLogLine(env)}` };
}

/** The service log's last line, for a failed start's message. */
function lastLogLine(env: NodeJS.ProcessEnv): string {
  try {
    const lines = readPrivateFile(statePath('serviceLog', env)).trim().split('\n');
    const last = lines[lines.length - 1]?.trim();
    return last ? ` (${last.slice(0, 300)})` : '';
  } catch {
    return '';
  }
}

/** The first line of a token file of the state dir, or undefined. */
export function readStateToken(file: 'consoleToken' | 'agentToken', env: NodeJS.ProcessEnv): string | undefined {
  try {
    const token = readPrivateFile(statePath(file, env)).split('\n')[0].trim();
    return token.length > 0 ? token : undefined;
  } catch {
    return undefined;
  }
}
