// The real CLI server (`node bin/turnback.js serve`, compiled build/), as a person runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The tokenized URL of the first stdout line. */
  loginUrl: string;
  stop(): Promise<void>;
}

export async function startServe(options: {
  cli: string;
  workspace: string;
  dataDir: string;
  stateDir: string;
  token: string;
  agentToken: string;
}): Promise<ServeProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      options.cli,
      'serve',
      '--workspace',
      options.workspace,
      '--data',
      options.dataDir,
      '--port',
      '0',
      '--token',
      options.token,
      '--agent-token',
      options.agentToken,
    ],
    {
      cwd: path.dirname(path.dirname(options.cli)),
      // service.json and the tokens go to the run's temp dir, not the person's state dir.
      env: { ...process.env, XDG_STATE_HOME: options.stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const loginUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`turnback serve printed no URL in 30 s: ${stderr.slice(0, 500)}`)),
      30_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^turnback listening on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`turnback serve exited with ${code}: ${stderr.slice(0, 500)}`));
    });
  });
  return {
    loginUrl,
    origin: new URL(loginUrl).origin,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
