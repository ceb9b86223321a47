// `turnback init claude-code [--workspace DIR] [--remove]`: registers turnback's hooks in the
// workspace's `.claude/settings.local.json` (or takes them out again), keeping every other
// setting and hook.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeHookSettings, removeHookSettings, shellQuote } from '../adapters/claude-code/settings.js';

const USAGE = 'usage: turnback init claude-code [--workspace DIR] [--remove]';

/** bin/turnback.js of this installation (this module is server/cli/ or build/cli/). */
export function turnbackBinPath(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'turnback.js');
}

/** bin/turnback-hook next to it: the sh + curl hook, which falls back to the Node one. */
export function turnbackHookPath(): string {
  return join(dirname(turnbackBinPath()), 'turnback-hook');
}

export function hookCommand(): string {
  return shellQuote(turnbackHookPath());
}

function parseArgs(args: string[]): { workspace: string; remove: boolean } | null {
  if (args[0] !== 'claude-code') return null;
  let workspace = process.cwd();
  let remove = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--workspace' && i + 1 < args.length) workspace = args[++i];
    else if (arg.startsWith('--workspace=')) workspace = arg.slice('--workspace='.length);
    else if (arg === '--remove') remove = true;
    else return null;
  }
  return { workspace: resolve(workspace), remove };
}

function readSettings(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return text.trim() === '' ? {} : JSON.parse(text);
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.turnback-${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

export async function run(args: string[]): Promise<number> {
  if (args[0] === 'gemini' || args[0] === 'opencode') return (await import('./init-hosts.js')).runHostInit(args);
  const parsed = parseArgs(args);
  if (!parsed) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { workspace, remove } = parsed;
  try {
    if (!statSync(workspace).isDirectory()) throw new Error('not a directory');
  } catch {
    process.stderr.write(`turnback init: ${workspace} is not a directory\n`);
    return 2;
  }
  const file = join(workspace, '.claude', 'settings.local.json');
  try {
    const existing = readSettings(file);
    const { settings, changed } = remove ? removeHookSettings(existing) : mergeHookSettings(existing, hookCommand());
    if (changed) writeAtomically(file, JSON.stringify(settings, null, 2) + '\n');
    process.stdout.write(remove
      ? `${changed ? 'Removed the turnback hooks from' : 'No turnback hooks in'} ${file}\n`
      : `${changed ? 'Added the turnback hooks to' : 'The turnback hooks are already in'} ${file}\n` +
        'Start the console with the command below, open the URL it prints, then use claude in that folder as usual:\n' +
        `  ${[process.execPath, turnbackBinPath()].map(shellQuote).join(' ')} serve --workspace ${shellQuote(workspace)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`turnback init: cannot update ${file}: ${(error as Error).message}\n`);
    return 2;
  }
}
