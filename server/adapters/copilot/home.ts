// Copilot CLI's own folder: `$COPILOT_HOME` when set (absolute), else `~/.copilot`. Its user
// hooks (`hooks/*.json`), its MCP servers and its sessions (`session-state/<id>/`) live there.
import { join } from 'node:path';

export function copilotHome(home: string, env: NodeJS.ProcessEnv): string {
  const configured = env.COPILOT_HOME;
  return configured && configured.startsWith('/') ? configured : join(home, '.copilot');
}
