// Child processes for the kill and lock cases: started with tsx so no build is needed, and
// always cleaned up by the test that started them.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function spawnTs(script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the first stdout line matching `pattern`; rejects if the child exits first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => done(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stderr: ${err}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) done(null, line);
    };
    const onErr = (chunk: Buffer) => {
      err += chunk.toString();
    };
    const onExit = (code: number | null) =>
      done(new Error(`exited (${code}) before a line matching ${pattern}; stderr: ${err}`));
    function done(e: Error | null, line?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onErr);
      child.off('exit', onExit);
      if (e) reject(e);
      else resolve(line!);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onErr);
    child.on('exit', onExit);
  });
}

export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode, stderr });
    else child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

export async function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await gone;
}
