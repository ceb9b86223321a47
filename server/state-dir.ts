// Where turnback keeps per-user state (docs/api.md "Build and run"). Kept here, dependency-free,
// so the hook path loads nothing but node built-ins.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function turnbackStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && xdg.length > 0 ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'turnback');
}

export function serverRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(turnbackStateDir(env), 'servers');
}

export function hookLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(turnbackStateDir(env), 'hook.log');
}
