// The pinned OpenCode CLI the real-CLI suite runs (`npm run test:hosts:opencode` runs this first;
// the suite too), cached by the test kit's installer. The npm package `opencode-ai` carries a
// placeholder and the native binary comes in the platform's optional dependency
// (`opencode-linux-x64`, …): installed without scripts, the binary is run from there.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerOf, ensurePinnedCli, packageDirOf, type Log } from '../../../server/testkit/hosts/install.js';

export const OPENCODE_VERSION = '1.18.33';

/** The platform packages that may hold this machine's binary, preferred first. */
const platformPackages = (): string[] => {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return [
    `opencode-${os}-${process.arch}`,
    `opencode-${os}-${process.arch}-baseline`,
    `opencode-${os}-${process.arch}-musl`,
  ];
};

/** The path of a working `opencode` of the pinned version, installing it first when needed. */
export function ensureOpencode(log?: Log): string {
  return ensurePinnedCli(
    {
      name: 'opencode',
      pkg: 'opencode-ai',
      version: OPENCODE_VERSION,
      locate: (dir) =>
        platformPackages()
          .map((name) => join(packageDirOf(dir, name), 'bin', 'opencode'))
          .find((bin) => answerOf(bin, ['--version']) === OPENCODE_VERSION) ?? null,
    },
    log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureOpencode()}\n`);
}
