// Resource figures of a process from /proc (Linux, the supported platform).
import { readdir, readFile } from 'node:fs/promises';

export async function openFds(pid: number | 'self'): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

export async function rssBytes(pid: number | 'self'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}
