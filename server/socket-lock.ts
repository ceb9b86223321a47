// A lock the kernel frees when its holder ends however it ends (a zombie holds nothing): a
// listening Unix socket. On Linux it is abstract, named from a random key kept 0600 in the lock's
// own private dir, so only who can read that dir can name it (or bind it first); elsewhere it is
// a socket file in that dir, taken over when nothing answers on it. Dependency-free: the service
// and the engine share it.
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';
import { createPrivateFileOnce, readPrivateFile, writePrivateFile } from './service/private-file.js';

export interface SocketLock {
  release(): Promise<void>;
}

/** The dir's lock key (`<name>.key`), made on first use; the same for every taker. */
function lockKey(dir: string, name: string): string {
  const file = path.join(dir, `${name}.key`);
  const fresh = () => `${randomBytes(32).toString('hex')}\n`;
  createPrivateFileOnce(file, fresh());
  let key = readPrivateFile(file).trim();
  // Empty only after a power cut caught it unwritten: a new one.
  if (key === '') {
    writePrivateFile(file, fresh());
    key = readPrivateFile(file).trim();
  }
  return key;
}

export function lockAddress(dir: string, name: string): string {
  if (process.platform !== 'linux') return path.join(dir, `${name}.sock`);
  const hash = createHash('sha256')
    .update(`${lockKey(dir, name)}\0${path.resolve(dir)}`)
    .digest('hex');
  return `\0turnback-${name}-${hash.slice(0, 40)}`;
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

/** The lock `name` of `dir` (a private dir), or null while a live process holds it. */
export async function holdSocketLock(dir: string, name: string): Promise<SocketLock | null> {
  const address = lockAddress(dir, name);
  let server = await listenOn(address);
  if (!server && !address.startsWith('\0') && !(await answers(address))) {
    rmSync(address, { force: true });
    server = await listenOn(address);
  }
  if (!server) return null;
  const held = server;
  return { release: () => new Promise<void>((resolve) => held.close(() => resolve())) };
}

/**
 * The lock `name` of `dir` with the file `dir/name` naming its holder (`info`, `pid` included) for
 * people and errors, or null while a live process holds it. Released, the file goes too.
 */
export async function holdNamedLock(dir: string, name: string, info: object): Promise<SocketLock | null> {
  const lock = await holdSocketLock(dir, name);
  if (!lock) return null;
  const infoFile = path.join(dir, name);
  try {
    writePrivateFile(infoFile, `${JSON.stringify({ pid: process.pid, ...info })}\n`);
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

/** The pid a lock's holder wrote in `file` (`{"pid":N}`), or 0 when unknown. */
export function holderPid(file: string): number {
  try {
    const pid = Number((JSON.parse(readPrivateFile(file)) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return 0;
  }
}
