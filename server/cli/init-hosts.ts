// `turnback init gemini|opencode [--workspace DIR] [--global] [--remove]`: Gemini CLI's hooks in
// `<workspace>/.gemini/settings.json` (`~/.gemini/settings.json` with --global), or OpenCode's
// plugin as `<workspace>/.opencode/plugins/turnback.js` (`~/.config/opencode/plugins/` with
// --global). Idempotent; every other setting, hook and plugin is kept; --remove takes out
// turnback's and nothing else.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mergeGeminiSettings, removeGeminiSettings } from '../adapters/gemini/settings.js';
import { PLUGIN_FILE_NAME, PLUGIN_MARKER, PLUGIN_SOURCE } from '../adapters/opencode/plugin.js';
import { hookCommand } from './init.js';

export const HOST_INIT_NAMES = ['gemini', 'opencode'] as const;
const USAGE = 'usage: turnback init gemini|opencode [--workspace DIR] [--global] [--remove]';

interface Options {
  host: (typeof HOST_INIT_NAMES)[number];
  workspace: string;
  global: boolean;
  remove: boolean;
}

function parseArgs(args: string[]): Options | null {
  const host = args[0] as Options['host'];
  if (!HOST_INIT_NAMES.includes(host)) return null;
  const options: Options = { host, workspace: process.cwd(), global: false, remove: false };
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--workspace' && i + 1 < args.length) options.workspace = args[++i];
    else if (arg.startsWith('--workspace=')) options.workspace = arg.slice('--workspace='.length);
    else if (arg === '--global') options.global = true;
    else if (arg === '--remove') options.remove = true;
    else return null;
  }
  options.workspace = resolve(options.workspace);
  return options;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();
const absoluteOr = (value: string | undefined, fallback: string) => (value && value.startsWith('/') ? value : fallback);

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.turnback-${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

function readJson(file: string): unknown {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  return text.trim() === '' ? {} : JSON.parse(text);
}

/** What was done, as a line for the person. */
function initGemini({ workspace, global, remove }: Options, env: NodeJS.ProcessEnv): string {
  const file = global
    ? join(absoluteOr(env.GEMINI_CLI_HOME, home(env)), '.gemini', 'settings.json')
    : join(workspace, '.gemini', 'settings.json');
  const existing = readJson(file);
  const { settings, changed } = remove ? removeGeminiSettings(existing) : mergeGeminiSettings(existing, hookCommand());
  if (changed) writeAtomically(file, `${JSON.stringify(settings, null, 2)}\n`);
  if (remove) return `${changed ? 'Removed the turnback hooks from' : 'No turnback hooks in'} ${file}\n`;
  return `${changed ? 'Added the turnback hooks to' : 'The turnback hooks are already in'} ${file}\n` +
    (global ? '' : 'Gemini CLI runs a project\'s hooks only in a trusted folder, and warns once when they are new or changed: that warning names turnback-hook.\n');
}

function initOpencode({ workspace, global, remove }: Options, env: NodeJS.ProcessEnv): string {
  const folder = global
    ? join(absoluteOr(env.XDG_CONFIG_HOME, join(home(env), '.config')), 'opencode', 'plugins')
    : join(workspace, '.opencode', 'plugins');
  const file = join(folder, PLUGIN_FILE_NAME);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current !== null && !current.startsWith(PLUGIN_MARKER)) {
    throw new Error(`${file} is another plugin, not turnback's: left as it is`);
  }
  if (remove) {
    if (current !== null) rmSync(file);
    return `${current !== null ? 'Removed the turnback plugin' : 'No turnback plugin'} ${file}\n`;
  }
  if (current !== PLUGIN_SOURCE) writeAtomically(file, PLUGIN_SOURCE);
  return `${current === PLUGIN_SOURCE ? 'The turnback plugin is already' : 'Added the turnback plugin as'} ${file}\n`;
}

export async function runHostInit(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parseArgs(args);
  if (!options) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    if (!statSync(options.workspace).isDirectory()) throw new Error('not a directory');
  } catch {
    process.stderr.write(`turnback init: ${options.workspace} is not a directory\n`);
    return 2;
  }
  try {
    process.stdout.write(options.host === 'gemini' ? initGemini(options, env) : initOpencode(options, env));
    return 0;
  } catch (error) {
    process.stderr.write(`turnback init ${options.host}: ${(error as Error).message}\n`);
    return 2;
  }
}
