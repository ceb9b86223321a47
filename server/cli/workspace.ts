// The workspace a server records: it must exist, be a directory, and be readable and writable.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from './startup-errors.js';

export function checkWorkspace(dir: string): string {
  const absolute = path.resolve(dir);
  try {
    if (!statSync(absolute).isDirectory()) throw new StartupError(`the workspace ${absolute} is not a directory`);
    accessSync(absolute, constants.R_OK | constants.W_OK | constants.X_OK);
    return realpathSync(absolute);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read and written';
    throw new StartupError(`the workspace ${absolute} ${reason}`);
  }
}
