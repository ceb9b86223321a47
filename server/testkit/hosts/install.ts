// The agent CLIs the real-CLI suites run, each pinned and installed into a cache folder outside
// the repository when missing (`~/.cache/turnback/<name>-<version>`): they are hundreds of MB,
// some with native binaries, so none is a dependency of the project. Each host's install.ts
// says where its package keeps a working binary; this installs the package there on its own
// (a package.json of its own, so npm never walks up into a project) and checks the answer.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PinnedCli {
  /** The cache folder's name, `<name>-<version>`. */
  name: string;
  /** The npm package and its pinned version. */
  pkg: string;
  version: string;
  /** A working binary of the pinned version in the cache folder, or null. */
  locate(dir: string): string | null;
  /** Run once the package is in (without its install scripts): what the package's own script would do. */
  afterInstall?(dir: string): void;
}

export type Log = (line: string) => void;
const stderrLog: Log = (line) => process.stderr.write(`${line}\n`);

export function cacheDirOf(cli: Pick<PinnedCli, 'name' | 'version'>, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'turnback', `${cli.name}-${cli.version}`);
}

/** The folder npm installs `pkg` into, below the cache folder. */
export const packageDirOf = (dir: string, pkg: string): string => join(dir, 'node_modules', ...pkg.split('/'));

/** What `command args` prints (trimmed), or null when it fails. */
export function answerOf(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 60_000, env }).trim();
  } catch {
    return null;
  }
}

/** The path of a working binary of the pinned version, installing the package first when needed. */
export function ensurePinnedCli(cli: PinnedCli, log: Log = stderrLog): string {
  const dir = cacheDirOf(cli);
  const found = cli.locate(dir);
  if (found) return found;
  log(`installing ${cli.pkg}@${cli.version} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `turnback-${cli.name}-cache`, private: true, dependencies: { [cli.pkg]: cli.version } }, null, 2)}\n`,
  );
  // npm 11 skips the install scripts of dependencies nobody approved: a host that needs one runs it in afterInstall.
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  cli.afterInstall?.(dir);
  const bin = cli.locate(dir);
  if (!bin) throw new Error(`no working ${cli.pkg} ${cli.version} in ${dir} after installing`);
  log(`installed ${bin}`);
  return bin;
}
