// The hook never writes to stdout/stderr in a way that could disturb the agent; what went
// wrong goes to one line in hook.log under the state dir.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hookLogPath } from './state-dir.js';

export function logHookProblem(message: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = hookLogPath(env);
  const line = `${new Date().toISOString()} claude-code ${message.replace(/[\r\n]+/g, ' ')}\n`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // Logging is best effort: the hook must exit 0 whatever happens.
  }
}
