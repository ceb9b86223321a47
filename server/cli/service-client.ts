// The CLI's view of the person's service: where it listens and a console-token request to it.
import { readLiveService, type ServiceEntry } from '../service/service-file.js';
import { readStateToken } from '../service/spawn-service.js';

export interface ConsoleTarget {
  entry: ServiceEntry;
  token: string;
}

/** The live service and the console token, or null when none runs. */
export function liveConsole(env: NodeJS.ProcessEnv = process.env): ConsoleTarget | null {
  const entry = readLiveService(env);
  const token = readStateToken('consoleToken', env);
  return entry && token ? { entry, token } : null;
}

export function consoleUrl(target: ConsoleTarget): string {
  return `${target.entry.url}?token=${encodeURIComponent(target.token)}`;
}

export async function getJson<T>(target: ConsoleTarget, path: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${target.entry.port}${path}`, {
    headers: { Authorization: `Bearer ${target.token}` },
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `answered ${response.status}`);
  return body;
}

export const NO_SERVICE = 'no turnback service is running (start it with turnback start)';
