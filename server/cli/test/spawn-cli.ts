// Runs the CLI from its TypeScript sources in a child process (tsx loads them), as a user would
// run bin/turnback.js, so these tests do not need `npm run build`.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const FIRST_LINE = /^turnback listening on http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/;

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line, or rejects if the process exits first. */
  firstLine: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    cwd: REPO,
    env: { ...process.env, TURNBACK_TOKEN: '', TURNBACK_AGENT_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve(stdout.slice(0, end));
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code} before a line: ${stderr}`)));
  });
  firstLine.catch(() => {});
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    firstLine,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Port and token from the first stdout line. */
export function parseFirstLine(line: string): { port: number; token: string } {
  const match = FIRST_LINE.exec(line);
  if (!match) throw new Error(`unexpected first line: ${line}`);
  return { port: Number(match[1]), token: decodeURIComponent(match[2]) };
}
