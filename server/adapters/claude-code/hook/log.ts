// The hook never writes to stdout/stderr in a way that could disturb the agent; what went
// wrong goes to one line in hook.log under the state dir.
import { closeSync, mkdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { openPrivateLog } from '../../../service/private-file.js';
import { hookLogPath } from '../../../state-dir.js';

/**
 * mkdir -p by hand: Node's recursive mkdirSync can spin forever on some paths (under /proc),
 * and a synchronous spin would also stop the hook's deadline from firing.
 */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    ensureDir(dirname(dir));
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** With hooks installed and no server running, every tool call adds a line: keep it bounded. */
const MAX_LOG_BYTES = 1024 * 1024;

export function logHookProblem(message: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = hookLogPath(env);
  const line = `${new Date().toISOString()} claude-code ${message.replace(/[\r\n]+/g, ' ')}\n`;
  try {
    ensureDir(dirname(file));
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
    const fd = openPrivateLog(file);
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Logging is best effort: the hook must exit 0 whatever happens.
  }
}
