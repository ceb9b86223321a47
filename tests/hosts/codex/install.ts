// The pinned Codex CLI the real-CLI suite runs (`npm run test:hosts:codex` runs this first),
// cached by the test kit's installer. `@openai/codex` is a small launcher (`bin/codex.js`) whose
// optional dependency `@openai/codex-linux-x64` (an alias of `@openai/codex@<version>-linux-x64`)
// carries the native binary; neither has install scripts, so installing without them loses nothing.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerOf, ensurePinnedCli, packageDirOf, type Log } from '../../../server/testkit/hosts/install.js';

export const CODEX_VERSION = '0.169.0';
const PACKAGE = '@openai/codex';

/** The path of the pinned `codex` launcher (run with node), installing it first when needed. */
export function ensureCodex(log?: Log): string {
  return ensurePinnedCli(
    {
      name: 'codex',
      pkg: PACKAGE,
      version: CODEX_VERSION,
      locate: (dir) => {
        const bin = join(packageDirOf(dir, PACKAGE), 'bin', 'codex.js');
        // `codex-cli 0.169.0` for the pinned version.
        return answerOf(process.execPath, [bin, '--version'])?.split(/\s+/).at(-1) === CODEX_VERSION ? bin : null;
      },
    },
    log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureCodex()}\n`);
}
