// A built `turnback serve` in its own process, as a person runs it, on a temp workspace; ready
// once its service.json (where the hook looks) is written.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Serve {
  child: ChildProcess;
  origin: string;
  /** The console token. */
  token: string;
}

/** `env.XDG_STATE_HOME` holds the service.json the hook reads. */
export async function startServe(
  cli: string,
  workspace: string,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Serve> {
  // The person's service (its files in the state dir, where the hook looks), its store in `dataDir`.
  const stateDir = join(env.XDG_STATE_HOME!, 'turnback');
  const args = ['serve', '--workspace', workspace, '--data', dataDir, '--state-dir', stateDir, '--port', '0'];
  const child = spawn(process.execPath, [cli, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((ready, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) ready(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => fail(new Error(`turnback serve exited with ${code}`)));
  });
  const url = new URL(firstLine.slice(firstLine.indexOf('http')));
  // service.json is written just before the first line.
  const entry = join(stateDir, 'service.json');
  for (let i = 0; i < 200 && !existsSync(entry); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child, origin: url.origin, token: url.searchParams.get('token') ?? '' };
}

/** SIGTERM (active turns are committed), then waits for the exit; service.json goes with it. */
export async function stopServe(serve: Serve): Promise<void> {
  const { child } = serve;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
