// The pinned OpenCode CLI the real-CLI suite runs, installed into a cache folder outside the
// repository when missing (`npm run test:hosts:opencode` runs this first; the suite too). The
// npm package `opencode-ai` carries a placeholder and the native binary comes in the platform's
// optional dependency (`opencode-linux-x64`, …): installed without scripts, the binary is run
// from there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const OPENCODE_VERSION = '1.18.33';
const PACKAGE = 'opencode-ai';

export function opencodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'turnback', `opencode-${OPENCODE_VERSION}`);
}

/** The platform packages that may hold this machine's binary, preferred first. */
const platformPackages = (): string[] => {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return [
    `opencode-${os}-${process.arch}`,
    `opencode-${os}-${process.arch}-baseline`,
    `opencode-${os}-${process.arch}-musl`,
  ];
};

function versionOf(bin: string): string | null {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 }).trim();
  } catch {
    return null;
  }
}

function findBinary(): string | null {
  for (const name of platformPackages()) {
    const bin = join(opencodeCacheDir(), 'node_modules', name, 'bin', 'opencode');
    if (existsSync(bin) && versionOf(bin) === OPENCODE_VERSION) return bin;
  }
  return null;
}

/** The path of a working `opencode` of the pinned version, installing it first when needed. */
export function ensureOpencode(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  const found = findBinary();
  if (found) return found;
  const dir = opencodeCacheDir();
  log(`installing ${PACKAGE}@${OPENCODE_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'turnback-opencode-cache',
        private: true,
        dependencies: { [PACKAGE]: OPENCODE_VERSION },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const bin = findBinary();
  if (!bin)
    throw new Error(
      `no OpenCode ${OPENCODE_VERSION} binary for ${process.platform}-${process.arch} in ${dir} after installing`,
    );
  log(`installed ${bin}`);
  return bin;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureOpencode()}\n`);
}
