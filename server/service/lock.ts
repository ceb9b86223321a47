// One service per person: a socket lock in the 0700 state dir (../socket-lock.ts), which no other
// user can name or take and the kernel frees when its holder dies. `service.lock` beside it names
// the holder's pid for people and tools.
import path from 'node:path';
import { holderPid, holdNamedLock, type SocketLock } from '../socket-lock.js';
import { STATE_FILES } from '../state-dir.js';

export type ServiceLock = SocketLock;

/** The lock, or null when a live service holds it. */
export function acquireServiceLock(stateDir: string): Promise<ServiceLock | null> {
  return holdNamedLock(stateDir, STATE_FILES.lock, {});
}

/** The pid the lock's holder wrote in `service.lock`, or 0 when unknown. */
export function serviceLockHolder(stateDir: string): number {
  return holderPid(path.join(stateDir, STATE_FILES.lock));
}
