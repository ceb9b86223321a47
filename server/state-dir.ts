// Where turnback keeps per-user state (docs/api.md "State dir"): one module for the engine, the
// CLI, the service and the Node hook; bin/turnback-hook computes the same (a test compares).
// Dependency-free, so the hook path loads nothing but node built-ins.
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';

/** `$XDG_STATE_HOME/turnback` when it is absolute (a relative one is ignored, per the XDG spec), else `~/.local/state/turnback`. */
export function turnbackStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'turnback');
}

/** The files of the state dir, by role. */
export const STATE_FILES = {
  service: 'service.json',
  lock: 'service.lock',
  consoleToken: 'console-token',
  agentToken: 'agent-token',
  workspaces: 'workspaces.json',
  sessions: 'sessions.json',
  serviceLog: 'service.log',
  hookLog: 'hook.log',
  told: 'told.json',
  agentNotices: 'agent-notices.json',
  personBudget: 'person-budget.json',
  spool: 'spool.jsonl',
} as const;

export type StateFile = keyof typeof STATE_FILES;

export function statePath(file: StateFile, env: NodeJS.ProcessEnv = process.env): string {
  return join(turnbackStateDir(env), STATE_FILES[file]);
}

/** A state file in another service's own state dir (`serve --data`, `--state-dir`). */
export function statePathIn(stateDir: string, file: StateFile): string {
  return join(stateDir, STATE_FILES[file]);
}

export function hookLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return statePath('hookLog', env);
}

/**
 * A workspace's id, `<folder name>-<first 12 hex of sha256(real path)>`: also the name of its
 * default data dir, so stores written by the per-folder `serve` of old open unchanged.
 */
export function workspaceIdOf(realRoot: string): string {
  const hash = createHash('sha256').update(realRoot).digest('hex').slice(0, 12);
  return `${basename(realRoot) || 'root'}-${hash}`;
}
