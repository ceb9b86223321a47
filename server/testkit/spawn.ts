// Runs a command to its end the way a host or a person would, and the real `turnback` CLI from
// source (tsx): `turnback hook claude-code`, `turnback init …`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
// Resolved from the repository, so the command also runs with a cwd outside it.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const cliEntry = fileURLToPath(new URL('../cli.ts', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with `stdin` fed in, collecting what it printed. */
export function runCommand(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string; cwd?: string; cleanEnv?: boolean },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? repo,
      // cleanEnv: `env` alone, none of this process's variables.
      env: options.cleanEnv ? options.env : { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

export function runCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string; cwd?: string },
): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', tsxLoader, cliEntry, ...args], options);
}

export function runHook(payload: unknown, env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const stdin = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return runCli(['hook', 'claude-code'], { env, stdin });
}
