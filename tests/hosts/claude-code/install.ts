// The pinned Claude Code CLIs the real-CLI suite runs (`npm run test:claude` runs this first),
// cached by the test kit's installer. The npm package ships `bin/claude.exe` as a placeholder;
// its postinstall (`install.cjs`) links the native binary of the platform's optional dependency
// (`@anthropic-ai/claude-code-linux-x64`, …) over it. Installed without scripts, that very
// script is run afterwards, and the binary must answer with the pinned version.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerOf, ensurePinnedCli, packageDirOf, type Log } from '../../../server/testkit/hosts/install.js';

/** The versions the suite runs on: the one pinned since the adapter began, and the newest (background subagents). */
export const CLAUDE_CODE_VERSIONS = ['2.1.197', '2.1.328'] as const;
export type ClaudeCodeVersion = (typeof CLAUDE_CODE_VERSIONS)[number];
const PACKAGE = '@anthropic-ai/claude-code';
/** The placeholder is a few hundred bytes; the native binary is hundreds of MB. */
const PLACEHOLDER_MAX_BYTES = 4096;

const isNative = (bin: string) => existsSync(bin) && statSync(bin).size > PLACEHOLDER_MAX_BYTES;

/** The path of a working `claude` of `version`, installing it first when needed. */
export function ensureClaudeCode(version: ClaudeCodeVersion, log?: Log): string {
  return ensurePinnedCli(
    {
      name: 'claude-code',
      pkg: PACKAGE,
      version,
      locate: (dir) => {
        const bin = join(packageDirOf(dir, PACKAGE), 'bin', 'claude.exe');
        const answer = isNative(bin)
          ? answerOf(bin, ['--version'], { ...process.env, DISABLE_AUTOUPDATER: '1' })
          : null;
        return answer?.startsWith(version) ? bin : null;
      },
      afterInstall: (dir) =>
        execFileSync(process.execPath, ['install.cjs'], { cwd: packageDirOf(dir, PACKAGE), stdio: 'inherit' }),
    },
    log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const version of CLAUDE_CODE_VERSIONS) process.stdout.write(`${ensureClaudeCode(version)}\n`);
}
