// Runs a terminal command (log, show, diff, undo, …) in this process with a captured Io, or as
// the real bin in a child process, from a given cwd and state dir.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Io } from '../client/io.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSX_LOADER = new URL('node_modules/tsx/dist/loader.mjs', `file://${REPO}`).href;
/** The bin as a person runs it, from the TypeScript sources (no build needed). */
export const TEST_BIN = [process.execPath, '--import', TSX_LOADER, `${REPO}server/cli.ts`];

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  colour?: boolean;
  /** Answers to the confirmation prompt, in order; with none given the Io is not interactive. */
  answers?: string[];
}

type Module = Promise<{ run(args: string[], io: Io): Promise<number> }>;
const COMMANDS = {
  log: (): Module => import('../log.js'),
  show: (): Module => import('../show.js'),
  diff: (): Module => import('../diff.js'),
  undo: (): Module => import('../undo.js'),
  redo: (): Module => import('../redo.js'),
  rewind: (): Module => import('../rewind.js'),
  restore: (): Module => import('../restore.js'),
  pin: (): Module => import('../pin.js'),
  pins: (): Module => import('../pins.js'),
  unpin: (): Module => import('../unpin.js'),
};
type Command = keyof typeof COMMANDS;

export async function runTerminal(
  command: Command,
  args: string[],
  options: RunOptions,
): Promise<Ran & { asked: string[] }> {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const answers = [...(options.answers ?? [])];
  const io: Io = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    cwd: options.cwd,
    env: options.env,
    colour: options.colour ?? false,
    interactive: options.answers !== undefined,
    bin: TEST_BIN,
    ask: async (question) => {
      asked.push(question);
      return answers.shift() ?? '';
    },
  };
  const code = await (await COMMANDS[command]()).run(args, io);
  return { code, stdout, stderr, asked };
}

/** The bin in a child process: stdin and stdout are pipes, as in a script. */
export function spawnTerminal(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = TEST_BIN;
    const child = spawn(command, [...rest, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
