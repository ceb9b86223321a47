// The pinned Codex CLI the real-CLI suite runs, installed into a cache folder outside the
// repository when missing (`npm run test:hosts:codex` runs this first; it is ~300 MB with a
// native binary, so it is no dependency of the project).
//
// `@openai/codex` is a small launcher (`bin/codex.js`) whose optional dependency
// `@openai/codex-linux-x64` (an alias of `@openai/codex@<version>-linux-x64`) carries the
// native binary; neither has install scripts, so `--ignore-scripts` loses nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CODEX_VERSION = '0.169.0';
const PACKAGE = '@openai/codex';

export function codexCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'turnback', `codex-${CODEX_VERSION}`);
}

/** The launcher, run with node: it finds the platform's native binary next to it. */
export function codexBinPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(codexCacheDir(env), 'node_modules', ...PACKAGE.split('/'), 'bin', 'codex.js');
}

function versionOf(bin: string): string | null {
  try {
    return execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 60_000 }).trim();
  } catch {
    return null;
  }
}

/** `codex-cli 0.169.0` for the pinned version. */
const isPinned = (answer: string | null) => answer?.split(/\s+/).at(-1) === CODEX_VERSION;

/** The path of a working `codex` launcher of the pinned version, installing it first when needed. */
export function ensureCodex(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  const bin = codexBinPath();
  if (isPinned(versionOf(bin))) return bin;

  const dir = codexCacheDir();
  log(`installing ${PACKAGE}@${CODEX_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and never walks up into a project.
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'turnback-codex-cache',
        private: true,
        dependencies: { [PACKAGE]: CODEX_VERSION },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });

  const version = versionOf(bin);
  if (!isPinned(version))
    throw new Error(`${bin} is not Codex ${CODEX_VERSION} after installing (it answered ${JSON.stringify(version)})`);
  log(`installed ${bin} (${version})`);
  return bin;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureCodex()}\n`);
}
