// Runs bin/turnback-hook, the sh entry `turnback init` installs, as Claude Code would: the
// file itself, executable, through its #!/bin/sh line. It is copied next to a turnback.js
// that runs the CLI from source, so its Node fallback needs no build.
import { accessSync, constants } from 'node:fs';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CommandResult, runCommand } from '../../../testkit/spawn.js';

const hookSource = fileURLToPath(new URL('../../../../bin/turnback-hook', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const cliEntry = new URL('../../../cli.ts', import.meta.url).href;

/** Installs the sh hook in `dir`; returns its path. */
export async function installShHook(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const hook = join(dir, 'turnback-hook');
  await copyFile(hookSource, hook);
  await chmod(hook, 0o755);
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  await writeFile(
    join(dir, 'turnback.js'),
    `await import(${JSON.stringify(tsxLoader)});\nawait import(${JSON.stringify(cliEntry)});\n`,
  );
  return hook;
}

function findOnPath(tool: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, tool);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`${tool} is not on PATH`);
}

/** The tools the sh hook uses, as a PATH folder in `dir`, minus `without`. */
export async function toolPath(dir: string, without: string[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const tool of ['cat', 'sed', 'tr', 'cut', 'date', 'mkdir', 'mv', 'wc', 'readlink', 'curl']) {
    if (!without.includes(tool)) await symlink(findOnPath(tool), join(dir, tool));
  }
  if (!without.includes('node')) await symlink(process.execPath, join(dir, 'node'));
  return dir;
}

export function runShHook(
  hook: string,
  payload: unknown,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<CommandResult> {
  const stdin = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return runCommand(hook, args, { env, stdin });
}
