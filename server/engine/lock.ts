// One engine per data dir: a socket lock in the store dir (../socket-lock.ts), which the kernel
// frees when its holder dies, a zombie not yet reaped included. The `lock` file beside it names
// the holder's pid for the error.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { holderPid, holdSocketLock } from '../socket-lock.js';
import { writePrivateFile } from '../service/private-file.js';
import { DataDirLockedError } from './errors.js';

export interface Lock {
  release(): Promise<void>;
}

export async function acquireLock(dataDir: string, storeDir: string): Promise<Lock> {
  const lock = await holdSocketLock(storeDir, 'lock');
  const infoFile = path.join(storeDir, 'lock');
  if (!lock) throw new DataDirLockedError(dataDir, holderPid(infoFile));
  try {
    writePrivateFile(infoFile, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
  } catch (err) {
    await lock.release();
    throw err;
  }
  return {
    release: async () => {
      rmSync(infoFile, { force: true });
      await lock.release();
    },
  };
}
