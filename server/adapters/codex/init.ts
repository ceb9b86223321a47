// `turnback init codex [--workspace DIR] [--global] [--remove]`: registers turnback's hooks in the
// workspace's `.codex/hooks.json` (or, with --global, the user's `$CODEX_HOME/hooks.json`,
// `~/.codex/hooks.json` by default), or takes them out again, keeping every other hook. Codex runs
// a new or changed hook only once the person trusted it in `/hooks`, and a project's `.codex/`
// folder only in a project they trusted: what it prints says so, since until then nothing is recorded.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mergeCodexHooks, removeCodexHooks } from './hooks-file.js';
import { codexHome } from './home.js';

export const CODEX_INIT_USAGE = 'usage: turnback init codex [--workspace DIR] [--global] [--remove]';

export interface CodexInitOptions {
  workspace: string;
  global: boolean;
  remove: boolean;
}

export interface InitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The options of `init codex …` (`args` after `codex`), or null for a usage error. */
export function parseCodexInitArgs(args: string[], cwd: string): CodexInitOptions | null {
  const options: CodexInitOptions = { workspace: cwd, global: false, remove: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--workspace' && i + 1 < args.length) options.workspace = args[++i];
    else if (arg.startsWith('--workspace=')) options.workspace = arg.slice('--workspace='.length);
    else if (arg === '--global') options.global = true;
    else if (arg === '--remove') options.remove = true;
    else return null;
  }
  return { ...options, workspace: resolve(cwd, options.workspace) };
}

/** The hooks file `init codex` writes for these options. */
export function codexHooksFile(options: CodexInitOptions, env: NodeJS.ProcessEnv = process.env): string {
  return options.global
    ? join(codexHome(env.HOME || homedir(), env), 'hooks.json')
    : join(options.workspace, '.codex', 'hooks.json');
}

function readHooksFile(file: string): unknown {
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

/** How to make Codex run the hooks: nothing is recorded until the person has trusted them. */
export function trustAdvice(options: CodexInitOptions): string {
  return [
    'Codex runs these hooks only once you trust them: start `codex` in that folder, type /hooks,',
    'and trust the turnback hooks (Codex asks again whenever they change).',
    ...(options.global ? [] : ['Codex reads a project\'s .codex/hooks.json only in a project you trust (it asks when it first starts there).']),
  ].join('\n');
}

/** `hook` is the installed turnback-hook, shell-quoted; `start` the command that starts the console. */
export function initCodex(options: CodexInitOptions, hook: string, start: string, env: NodeJS.ProcessEnv = process.env): InitOutcome {
  if (!options.global) {
    try {
      if (!statSync(options.workspace).isDirectory()) throw new Error('not a directory');
    } catch {
      return { code: 2, stdout: '', stderr: `turnback init: ${options.workspace} is not a directory\n` };
    }
  }
  const file = codexHooksFile(options, env);
  try {
    const existing = readHooksFile(file);
    const { file: hooks, changed } = options.remove ? removeCodexHooks(existing) : mergeCodexHooks(existing, hook);
    if (changed) writeAtomically(file, JSON.stringify(hooks, null, 2) + '\n');
    const stdout = options.remove
      ? `${changed ? 'Removed the turnback hooks from' : 'No turnback hooks in'} ${file}\n`
      : `${changed ? 'Added the turnback hooks to' : 'The turnback hooks are already in'} ${file}\n${trustAdvice(options)}\n` +
        `Start the console with the command below, open the URL it prints, then use codex as usual:\n  ${start}\n`;
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    return { code: 2, stdout: '', stderr: `turnback init: cannot update ${file}: ${(error as Error).message}\n` };
  }
}
