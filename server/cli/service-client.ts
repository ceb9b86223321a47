// The CLI's view of the person's service: where it listens and a console-token request to it,
// over its Unix socket (the token never goes to a TCP port).
import { readLiveService, serviceSocketPath, type ServiceEntry } from '../service/service-file.js';
import { readStateToken } from '../service/spawn-service.js';
import { requestJson } from './client/http.js';

export interface ConsoleTarget {
  entry: ServiceEntry;
  token: string;
  socketPath: string;
}

/** The live service and the console token, or null when none runs. */
export function liveConsole(env: NodeJS.ProcessEnv = process.env): ConsoleTarget | null {
  const entry = readLiveService(env);
  const token = readStateToken('consoleToken', env);
  return entry && token ? { entry, token, socketPath: serviceSocketPath(env) } : null;
}

export function consoleUrl(target: Pick<ConsoleTarget, 'entry' | 'token'>): string {
  return `${target.entry.url}?token=${encodeURIComponent(target.token)}`;
}

export async function getJson<T>(target: ConsoleTarget, path: string): Promise<T> {
  return serviceJson<T>(target, 'GET', path, undefined, 5_000);
}

/** One console-token request over the socket; a non-2xx answer throws its message. */
export async function serviceJson<T>(
  target: Pick<ConsoleTarget, 'token' | 'socketPath'>,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<T> {
  const answer = await requestJson(target.socketPath, method, path, target.token, body, timeoutMs);
  const json = answer.json as (T & { error?: { message?: string } }) | undefined;
  if (answer.status < 200 || answer.status >= 300) throw new Error(json?.error?.message ?? `answered ${answer.status}`);
  return json as T;
}

export const NO_SERVICE = 'no turnback service is running (start it with turnback start)';
