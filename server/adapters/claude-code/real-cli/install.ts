// The pinned Claude Code CLI the real-CLI suite runs, installed into a cache folder outside the
// repository when missing (`npm run test:claude` runs this first; it is ~235 MB with a native
// binary, so it is no dependency of the project).
//
// The npm package ships `bin/claude.exe` as a placeholder; its postinstall (`install.cjs`)
// links the native binary of the platform's optional dependency
// (`@anthropic-ai/claude-code-linux-x64`, …) over it. npm 11 skips the install scripts of
// dependencies nobody approved, so this installs with `--ignore-scripts` and runs that very
// script itself, then checks that the binary answers with the pinned version.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The versions the suite runs on: the one pinned since the adapter began, and the newest (background subagents). */
export const CLAUDE_CODE_VERSIONS = ['2.1.197', '2.1.328'] as const;
export type ClaudeCodeVersion = (typeof CLAUDE_CODE_VERSIONS)[number];
export const CLAUDE_CODE_VERSION: ClaudeCodeVersion = CLAUDE_CODE_VERSIONS[0];
const PACKAGE = '@anthropic-ai/claude-code';
/** The placeholder is a few hundred bytes; the native binary is hundreds of MB. */
const PLACEHOLDER_MAX_BYTES = 4096;

export function claudeCacheDir(
  version: ClaudeCodeVersion = CLAUDE_CODE_VERSION,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'turnback', `claude-code-${version}`);
}

export function claudeBinPath(
  version: ClaudeCodeVersion = CLAUDE_CODE_VERSION,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return join(claudeCacheDir(version, env), 'node_modules', ...PACKAGE.split('/'), 'bin', 'claude.exe');
}

function versionOf(bin: string): string | null {
  try {
    return execFileSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
    }).trim();
  } catch {
    return null;
  }
}

const isNative = (bin: string) => existsSync(bin) && statSync(bin).size > PLACEHOLDER_MAX_BYTES;

/** The path of a working `claude` of `version`, installing it first when needed. */
export function ensureClaudeCode(
  version: ClaudeCodeVersion = CLAUDE_CODE_VERSION,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string {
  const bin = claudeBinPath(version);
  if (isNative(bin) && versionOf(bin)?.startsWith(version)) return bin;

  const dir = claudeCacheDir(version);
  log(`installing ${PACKAGE}@${version} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and never walks up into a project.
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'turnback-claude-code-cache',
        private: true,
        dependencies: { [PACKAGE]: version },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['install.cjs'], {
    cwd: join(dir, 'node_modules', ...PACKAGE.split('/')),
    stdio: 'inherit',
  });

  const answered = versionOf(bin);
  if (!isNative(bin) || !answered?.startsWith(version)) {
    throw new Error(`${bin} is not Claude Code ${version} after installing (it answered ${JSON.stringify(answered)})`);
  }
  log(`installed ${bin} (${answered})`);
  return bin;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const version of CLAUDE_CODE_VERSIONS) process.stdout.write(`${ensureClaudeCode(version)}\n`);
}
