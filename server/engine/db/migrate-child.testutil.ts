// The migrations' crash tests: a child process opens (and so migrates) a store, and is killed
// with SIGKILL a chosen time after it starts opening.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./migrate-child.ts', import.meta.url));

/** Runs the child on `file`; kills it `killAfter` ms after it starts opening (never, when null). */
export function migrateIn(file: string, killAfter: number | null): Promise<{ migrated: boolean; openMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let openedAt = 0;
    let migratedAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!openedAt && out.includes('opening\n')) {
        openedAt = performance.now();
        if (killAfter !== null) setTimeout(() => child.kill('SIGKILL'), killAfter);
      }
      if (!migratedAt && out.includes('migrated\n')) migratedAt = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`the child failed (${code}): ${err}`));
      else resolve({ migrated: out.includes('migrated\n'), openMs: migratedAt - openedAt });
    });
  });
}
