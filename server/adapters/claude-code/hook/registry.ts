// Finds the running turnback server for a cwd in the server registry of docs/api.md:
// `<state>/turnback/servers/<port>.json` = {workspace, port, agentToken, pid}. Entries whose
// process is gone are ignored; the deepest workspace containing the cwd wins.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { relativeInsideAnyForm } from '../paths.js';
import { serverRegistryDir } from '../../../state-dir.js';

export interface ServerEntry {
  workspace: string;
  port: number;
  agentToken: string;
  pid: number;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseEntry(text: string): ServerEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { workspace, port, agentToken, pid } = raw as Record<string, unknown>;
  if (typeof workspace !== 'string' || typeof agentToken !== 'string') return null;
  if (!Number.isInteger(port) || !Number.isInteger(pid)) return null;
  return { workspace, port: port as number, agentToken, pid: pid as number };
}

export function readLiveServers(env: NodeJS.ProcessEnv = process.env): ServerEntry[] {
  const dir = serverRegistryDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const servers: ServerEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    let entry: ServerEntry | null = null;
    try {
      entry = parseEntry(readFileSync(join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    if (entry && isProcessAlive(entry.pid)) servers.push(entry);
  }
  return servers;
}

export function findServerFor(cwd: string, servers: ServerEntry[]): ServerEntry | null {
  let best: ServerEntry | null = null;
  let bestDepth = -1;
  for (const server of servers) {
    if (relativeInsideAnyForm(server.workspace, cwd) === null) continue;
    const depth = server.workspace.split('/').filter(Boolean).length;
    if (depth > bestDepth) {
      best = server;
      bestDepth = depth;
    }
  }
  return best;
}
