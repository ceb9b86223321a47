// Items 7 and 8 run the compiled CLI: build once per run so they never measure stale code.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BenchContext } from '../context.js';
import { REPO_DIR } from '../server-process.js';

const run = promisify(execFile);
let pending: Promise<void> | null = null;

/** Resolves once `npm run build` succeeded (or, with `reuse`, when build/ and dist/ exist). */
export function ensureBuild(ctx: BenchContext, reuse: boolean): Promise<void> {
  if (!pending) {
    pending = (async () => {
      if (reuse && existsSync(path.join(REPO_DIR, 'build')) && existsSync(path.join(REPO_DIR, 'dist'))) return;
      const started = performance.now();
      try {
        await run('npm', ['run', 'build'], { cwd: REPO_DIR, maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        const out = error as { stdout?: string; stderr?: string; message: string };
        const detail = `${out.stdout ?? ''}\n${out.stderr ?? ''}`.split('\n').filter((l) => /error/i.test(l)).slice(0, 3).join(' | ');
        throw new Error(`npm run build failed: ${detail || out.message}`);
      }
      ctx.log(`npm run build took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    })();
  }
  return pending;
}
