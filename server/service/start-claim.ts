// Which starter starts the service: of a burst of cold hooks only the one holding the claim spawns
// a service; the others wait for that start. The claim is a socket lock of the state dir
// (../socket-lock.ts, as the service's own lock): the kernel frees it when its holder ends, however
// it ends, and no other user can name it. Node built-ins only: the hook loads this.
import { mkdirSync } from 'node:fs';
import { holdSocketLock } from '../socket-lock.js';

export interface StartClaim {
  release(): void;
}

/** The claim to start the service of `stateDir`, or null while another starter holds it. */
export async function claimStart(stateDir: string): Promise<StartClaim | null> {
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const lock = await holdSocketLock(stateDir, 'service.starting');
    return lock ? { release: () => void lock.release() } : null;
  } catch {
    // A state dir it cannot use: the start goes ahead and fails with its own reason.
    return { release: () => undefined };
  }
}
