// The pinned Gemini CLI the real-CLI suite runs (`npm run test:hosts:gemini` runs this first; the
// suite too), cached by the test kit's installer. It is a bundled Node program
// (`bundle/gemini.js`); its install scripts only build an optional native pty, which `-p` runs
// do not use.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerOf, ensurePinnedCli, packageDirOf, type Log } from '../../../server/testkit/hosts/install.js';

export const GEMINI_CLI_VERSION = '0.61.0';
const PACKAGE = '@google/gemini-cli';

/** The path of the pinned Gemini CLI's entry script (run with node), installing it first when needed. */
export function ensureGeminiCli(log?: Log): string {
  return ensurePinnedCli(
    {
      name: 'gemini-cli',
      pkg: PACKAGE,
      version: GEMINI_CLI_VERSION,
      locate: (dir) => {
        const entry = join(packageDirOf(dir, PACKAGE), 'bundle', 'gemini.js');
        return answerOf(process.execPath, [entry, '--version']) === GEMINI_CLI_VERSION ? entry : null;
      },
    },
    log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureGeminiCli()}\n`);
}
