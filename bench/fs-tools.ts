// Filesystem helpers shared by the contenders and scenarios.
import { execFile } from 'node:child_process';
import { copyFile, lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `cp -a` keeps modes and is far faster than a JS walk for 10,000 files. */
export async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await run('cp', ['-a', '--reflink=auto', from, to]);
}

export async function removeTree(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

export interface TreeSize {
  /** Sum of file sizes. */
  bytes: number;
  /** Blocks actually allocated (what `du` shows). */
  diskBytes: number;
  files: number;
}

export async function treeSize(dir: string): Promise<TreeSize> {
  const total: TreeSize = { bytes: 0, diskBytes: 0, files: 0 };
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        await walk(full);
      } else {
        const st = await lstat(full);
        total.bytes += st.size;
        total.diskBytes += st.blocks * 512;
        total.files++;
      }
    }
  };
  await walk(dir);
  return total;
}

/** The floor for a durable write: open, write, fsync, close. */
export async function durableWrite(file: string, data: Uint8Array): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The floor for a durable restore: copy the bytes, then fsync them. */
export async function durableCopy(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  const handle = await open(to, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Untimed, before each measured call: writes out the dirty data every contender left behind
 * (git's index and objects, a workload's copy), so no contender's fsyncs pay for another's.
 */
export async function flushFilesystem(dir: string): Promise<void> {
  await new Promise<void>((resolve) => execFile('sync', ['-f', dir], () => resolve()));
}
