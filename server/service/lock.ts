// One service per person: a socket lock in the 0700 state dir (../socket-lock.ts), which no other
// user can name or take and the kernel frees when its holder dies. `service.lock` beside it names
// the holder's pid for people and tools.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { holderPid, holdSocketLock } from '../socket-lock.js';
import { STATE_FILES } from '../state-dir.js';
import { writePrivateFile } from './private-file.js';

export interface ServiceLock {
  release(): Promise<void>;
}

/** The lock, or null when a live service holds it. */
export async function acquireServiceLock(stateDir: string): Promise<ServiceLock | null> {
  const lock = await holdSocketLock(stateDir, STATE_FILES.lock);
  if (!lock) return null;
  const infoFile = path.join(stateDir, STATE_FILES.lock);
  try {
    writePrivateFile(infoFile, `${JSON.stringify({ pid: process.pid })}\n`);
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

/** The pid of the service holding the lock, as it wrote it (0 while it has not yet). */
export function serviceLockHolder(stateDir: string): number {
  return holderPid(path.join(stateDir, STATE_FILES.lock));
}
