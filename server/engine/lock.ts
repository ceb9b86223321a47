// One engine per data dir: a socket lock in the store dir (../socket-lock.ts), which the kernel
// frees when its holder dies, a zombie not yet reaped included. The `lock` file beside it names
// the holder's pid for the error.
import path from 'node:path';
import { holderPid, holdNamedLock } from '../socket-lock.js';
import { DataDirLockedError } from './errors.js';

export interface Lock {
  release(): Promise<void>;
}

export async function acquireLock(dataDir: string, storeDir: string): Promise<Lock> {
  const lock = await holdNamedLock(storeDir, 'lock', { at: new Date().toISOString() });
  if (!lock) throw new DataDirLockedError(dataDir, holderPid(path.join(storeDir, 'lock')));
  return lock;
}
