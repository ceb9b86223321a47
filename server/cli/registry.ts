// The server registry of docs/api.md: `<state>/turnback/servers/<port>.json` (mode 0600) with
// {workspace, port, agentToken, pid}, so agent adapters find the server of their workspace.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serverRegistryDir } from '../state-dir.js';

export interface RegistryEntry {
  workspace: string;
  port: number;
  agentToken: string;
  pid: number;
}

export function registryPath(port: number, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(serverRegistryDir(env), `${port}.json`);
}

/** Writes the entry atomically and private to the user (it holds the agent token); returns its path. */
export function writeRegistryEntry(entry: RegistryEntry, env: NodeJS.ProcessEnv = process.env): string {
  const file = registryPath(entry.port, env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return file;
}

export function removeRegistryEntry(file: string): void {
  rmSync(file, { force: true });
}
