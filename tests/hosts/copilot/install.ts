// The pinned GitHub Copilot CLI the real-CLI suite runs (`npm run test:hosts:copilot` runs this
// first; the suite too), cached by the test kit's installer. `@github/copilot` is a small loader
// (`npm-loader.js`) whose optional dependency `@github/copilot-<platform>-<arch>` carries a native
// binary; neither has install scripts. On its first run the binary unpacks its JS and runtime
// (about 240 MB) into a package cache: here one beside the install, unpacked once after it
// (COPILOT_SEA_EXTRACT_ONLY), so runs with a temp HOME never unpack it again.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  answerOf,
  cacheDirOf,
  ensurePinnedCli,
  packageDirOf,
  type Log,
} from '../../../server/testkit/hosts/install.js';

export const COPILOT_VERSION = '1.0.102';
const PACKAGE = '@github/copilot';
const CLI = { name: 'copilot', version: COPILOT_VERSION };

/** Where the pinned binary keeps its unpacked package (COPILOT_PKG_CACHE_HOME of every run). */
export const copilotPackageCache = (): string => join(cacheDirOf(CLI), 'pkg-cache');

const packageEnv = () => ({
  ...process.env,
  COPILOT_PKG_CACHE_HOME: copilotPackageCache(),
  COPILOT_AUTO_UPDATE: 'false',
});

/** The path of the pinned `copilot` loader (run with node), installing it first when needed. */
export function ensureCopilot(log?: Log): string {
  return ensurePinnedCli(
    {
      ...CLI,
      pkg: PACKAGE,
      afterInstall: (dir) => {
        const loader = join(packageDirOf(dir, PACKAGE), 'npm-loader.js');
        execFileSync(process.execPath, [loader], {
          env: { ...packageEnv(), COPILOT_SEA_EXTRACT_ONLY: '1' },
          stdio: 'inherit',
          timeout: 300_000,
        });
      },
      locate: (dir) => {
        const loader = join(packageDirOf(dir, PACKAGE), 'npm-loader.js');
        // `GitHub Copilot CLI 1.0.102.` on its first line for the pinned version.
        const answer = answerOf(process.execPath, [loader, '--version'], packageEnv());
        return answer?.split('\n')[0] === `GitHub Copilot CLI ${COPILOT_VERSION}.` ? loader : null;
      },
    },
    log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureCopilot()}\n`);
}
