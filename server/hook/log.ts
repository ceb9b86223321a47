// The hook never writes to stdout/stderr in a way that could disturb the agent; what went
// wrong goes to one line in hook.log under the state dir.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { hookLogPath } from './state-dir.js';

/** With hooks installed and no server running, every tool call adds a line: keep it bounded. */
const MAX_LOG_BYTES = 1024 * 1024;

export function logHookProblem(message: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = hookLogPath(env);
  const line = `${new Date().toISOString()} claude-code ${message.replace(/[\r\n]+/g, ' ')}\n`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
    appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // Logging is best effort: the hook must exit 0 whatever happens.
  }
}
