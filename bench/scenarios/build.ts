// Items 7 and 8 run the compiled CLI. It is built once per run (never stale code), then
// copied aside with the console, because another build in this checkout (a test run) empties
// dist/ and build/ while it works, and a server serving from them would answer 404s.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BenchContext } from '../context.js';
import { copyTree } from '../fs-tools.js';
import { REPO_DIR } from '../server-process.js';

const run = promisify(execFile);

export interface BuiltApp {
  /** `bin/turnback.js` of the private copy. */
  cli: string;
}

let pending: Promise<BuiltApp> | null = null;

/** Builds (or, with `reuse`, takes the existing build/ and dist/), then copies the app aside. */
export function ensureBuild(ctx: BenchContext, reuse: boolean): Promise<BuiltApp> {
  if (!pending) {
    pending = (async () => {
      const built = existsSync(path.join(REPO_DIR, 'build')) && existsSync(path.join(REPO_DIR, 'dist'));
      if (!(reuse && built)) {
        const started = performance.now();
        try {
          await run('npm', ['run', 'build'], { cwd: REPO_DIR, maxBuffer: 64 * 1024 * 1024 });
        } catch (error) {
          const out = error as { stdout?: string; stderr?: string; message: string };
          const detail = `${out.stdout ?? ''}\n${out.stderr ?? ''}`
            .split('\n')
            .filter((l) => /error/i.test(l))
            .slice(0, 3)
            .join(' | ');
          throw new Error(`npm run build failed: ${detail || out.message}`, { cause: error });
        }
        ctx.log(`npm run build took ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      const app = ctx.path('app');
      for (const dir of ['bin', 'build', 'dist']) await copyTree(path.join(REPO_DIR, dir), path.join(app, dir));
      await copyFile(path.join(REPO_DIR, 'package.json'), path.join(app, 'package.json'));
      await symlink(path.join(REPO_DIR, 'node_modules'), path.join(app, 'node_modules'));
      return { cli: path.join(app, 'bin', 'turnback.js') };
    })();
  }
  return pending;
}
