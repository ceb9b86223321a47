// The pinned Gemini CLI the real-CLI suite runs, installed into a cache folder outside the
// repository when missing (`npm run test:hosts:gemini` runs this first; the suite too). It is a
// bundled Node program (`bundle/gemini.js`), no dependency of the project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const GEMINI_CLI_VERSION = '0.61.0';
const PACKAGE = '@google/gemini-cli';

export function geminiCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'turnback', `gemini-cli-${GEMINI_CLI_VERSION}`);
}

export const geminiEntryPath = (env: NodeJS.ProcessEnv = process.env): string =>
  join(geminiCacheDir(env), 'node_modules', ...PACKAGE.split('/'), 'bundle', 'gemini.js');

function versionOf(entry: string): string | null {
  try {
    return execFileSync(process.execPath, [entry, '--version'], { encoding: 'utf8', timeout: 60_000 }).trim();
  } catch {
    return null;
  }
}

/** The path of the pinned Gemini CLI's entry script, installing it first when needed. */
export function ensureGeminiCli(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  const entry = geminiEntryPath();
  if (existsSync(entry) && versionOf(entry) === GEMINI_CLI_VERSION) return entry;
  const dir = geminiCacheDir();
  log(`installing ${PACKAGE}@${GEMINI_CLI_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and never walks up into a project.
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'turnback-gemini-cli-cache',
        private: true,
        dependencies: { [PACKAGE]: GEMINI_CLI_VERSION },
      },
      null,
      2,
    )}\n`,
  );
  // Its install scripts only build an optional native pty, which `-p` runs do not use.
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const version = versionOf(entry);
  if (version !== GEMINI_CLI_VERSION)
    throw new Error(
      `${entry} is not Gemini CLI ${GEMINI_CLI_VERSION} after installing (it answered ${JSON.stringify(version)})`,
    );
  log(`installed ${entry} (${version})`);
  return entry;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureGeminiCli()}\n`);
}
