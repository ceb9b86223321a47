// Codex's own folder: `$CODEX_HOME` when set (absolute), else `~/.codex`. Its rollouts, its user
// hooks.json and its config.toml live there.
import { join } from 'node:path';

export function codexHome(home: string, env: NodeJS.ProcessEnv): string {
  const configured = env.CODEX_HOME;
  return configured && configured.startsWith('/') ? configured : join(home, '.codex');
}
