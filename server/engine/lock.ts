// One engine per data dir: a lock file holding the owner's pid. A lock left by a process that
// no longer exists is stale and taken over.
import path from 'node:path';
import { DataDirLockedError } from './errors.js';
import { type EngineFs, errnoCode, isNotFound } from './paths/fs.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

export interface Lock {
  release(): Promise<void>;
}

export async function acquireLock(fs: EngineFs, dataDir: string, storeDir: string): Promise<Lock> {
  const file = path.join(storeDir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFileExclusive(file, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
      return {
        release: async () => {
          try {
            await fs.unlink(file);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        },
      };
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e;
    }
    let pid = 0;
    try {
      pid = Number((JSON.parse((await fs.readFile(file)).toString('utf8')) as { pid?: unknown }).pid) || 0;
    } catch (e) {
      if (isNotFound(e)) continue;
      // An unreadable or half-written lock belongs to no live process.
    }
    if (pid > 0 && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
    try {
      await fs.unlink(file);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  throw new DataDirLockedError(dataDir, 0);
}
