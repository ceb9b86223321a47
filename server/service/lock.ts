// One service per person: the lock is a listening Unix socket, which the kernel frees when its
// process ends however it ends, so a lock left by a dead service is never in the way and two
// racing starters cannot both hold it. On Linux the socket is abstract (no file); elsewhere it is
// a socket file in the state dir, taken over when nothing answers on it. `service.lock` beside
// it names the holder's pid for people and tools.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';

export interface ServiceLock {
  release(): Promise<void>;
}

function socketAddress(stateDir: string): string {
  if (process.platform === 'linux') {
    return `\0turnback-service-${createHash('sha256').update(path.resolve(stateDir)).digest('hex').slice(0, 32)}`;
  }
  return path.join(stateDir, 'service.lock.sock');
}

function listenOn(address: string): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
    server.listen({ path: address, exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/** Whether a live process listens on a socket file (only asked off Linux). */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path: address });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The lock, or null when a live service holds it. */
export async function acquireServiceLock(stateDir: string): Promise<ServiceLock | null> {
  const address = socketAddress(stateDir);
  let server = await listenOn(address);
  if (!server && !address.startsWith('\0') && !(await answers(address))) {
    rmSync(address, { force: true });
    server = await listenOn(address);
  }
  if (!server) return null;
  const infoFile = path.join(stateDir, 'service.lock');
  writeFileSync(infoFile, `${JSON.stringify({ pid: process.pid })}\n`, { mode: 0o600 });
  const held = server;
  return {
    release: () =>
      new Promise<void>((resolve) => {
        rmSync(infoFile, { force: true });
        held.close(() => resolve());
      }),
  };
}
