// `service.json` (docs/api.md "State dir"): where the person's one live service listens, for the
// CLI and the hooks. Written once the service answers, removed when it stops.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { statePath, turnbackStateDir } from '../state-dir.js';
import { readPrivateFile, writePrivateFile } from './private-file.js';

/** SIGTERM to exit: active turns are committed within this, else the service exits anyway. */
export const SHUTDOWN_BOUND_MS = 10_000;

export interface ServiceEntry {
  pid: number;
  port: number;
  version: string;
  startedAt: string;
  /** Without its token: `http://127.0.0.1:<port>/`. */
  url: string;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `file`: another service's own `service.json` (`serve --data`), else the per-user one. */
export function writeServiceEntry(
  entry: ServiceEntry,
  env: NodeJS.ProcessEnv = process.env,
  file: string = statePath('service', env),
): string {
  // One line, keys in this order: bin/turnback-hook reads it with sed.
  writePrivateFile(
    file,
    `${JSON.stringify({ pid: entry.pid, port: entry.port, version: entry.version, startedAt: entry.startedAt, url: entry.url })}\n`,
  );
  return file;
}

/** Removes the entry if it is still this process's (a newer service may have written its own). */
export function removeServiceEntry(file: string, pid = process.pid): void {
  try {
    const entry = JSON.parse(readPrivateFile(file)) as { pid?: unknown };
    if (entry.pid === pid) rmSync(file, { force: true });
  } catch {
    // gone or unreadable: nothing of ours to remove
  }
}

/** The live service's entry, or null (none written, unreadable, or its process is gone). */
export function readLiveService(
  env: NodeJS.ProcessEnv = process.env,
  file: string = statePath('service', env),
): ServiceEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readPrivateFile(file));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { pid, port, version, startedAt, url } = raw as Record<string, unknown>;
  // pid 0 would name the reader's own process group: never a service.
  if (!Number.isInteger(pid) || (pid as number) <= 0 || !Number.isInteger(port) || typeof url !== 'string') return null;
  if (!isProcessAlive(pid as number)) return null;
  return {
    pid: pid as number,
    port: port as number,
    version: String(version ?? ''),
    startedAt: String(startedAt ?? ''),
    url,
  };
}

/**
 * `service.sock`: where the CLI and the hooks talk to the service, in the 0700 state dir: no
 * other user can connect to it or take its place, as anyone can take a TCP port.
 */
export function serviceSocketIn(stateDir: string): string {
  return join(stateDir, 'service.sock');
}

/** The person's service's socket, in the per-user state dir. */
export function serviceSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  return serviceSocketIn(turnbackStateDir(env));
}

/** `last-port`: the port the service last listened on, tried first at the next start, so an open tab finds it again. */
const LAST_PORT = 'last-port';

export function readLastPort(stateDir: string): number | undefined {
  try {
    const text = readPrivateFile(join(stateDir, LAST_PORT)).trim();
    const port = Number(text);
    return /^[0-9]{1,5}$/.test(text) && port > 0 && port <= 65535 ? port : undefined;
  } catch {
    return undefined;
  }
}

export function writeLastPort(stateDir: string, port: number): void {
  writePrivateFile(join(stateDir, LAST_PORT), `${port}\n`);
}
