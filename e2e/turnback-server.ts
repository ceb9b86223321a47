// Starts the real server (`node bin/turnback.js serve`) on a fresh temp workspace and data
// dir, reads its URL from the first stdout line, and stops it (and removes the dirs) after.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LISTENING = /^turnback listening on (http:\/\/127\.0\.0\.1:(\d+))\/\?token=(\S+)$/;

export interface ServerHandle {
  /** The tokenized URL the server prints: the console opens from it. */
  loginUrl: string;
  origin: string;
  port: number;
  token: string;
  agentToken: string;
  workspace: string;
  dataDir: string;
  stop(): Promise<void>;
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`turnback did not print its URL in time\n${stderr()}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`turnback exited with ${code} before listening\n${stderr()}`));
    });
  });
}

/** `tokens`: those of an earlier run, for a service restarted with the same ones (as the kept files make it). */
export async function startServer(tokens?: {
  token: string;
  agentToken: string;
  port?: number;
}): Promise<ServerHandle> {
  const workspace = await mkdtemp(path.join(tmpdir(), 'turnback-e2e-ws-'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'turnback-e2e-data-'));
  // 128 bits each, as the server requires of a token given on its command line.
  const token = tokens?.token ?? `console-${randomBytes(16).toString('hex')}`;
  const agentToken = tokens?.agentToken ?? `agent-${randomBytes(16).toString('hex')}`;
  const child = spawn(
    process.execPath,
    [
      'bin/turnback.js',
      'serve',
      '--workspace',
      workspace,
      '--data',
      dataDir,
      '--port',
      String(tokens?.port ?? 0),
      '--token',
      token,
      '--agent-token',
      agentToken,
    ],
    // XDG_STATE_HOME keeps service.json and the tokens inside the temp dir, not in the user's home.
    { cwd: ROOT, env: { ...process.env, XDG_STATE_HOME: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderrText = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    await rm(workspace, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const line = await firstLine(child, () => stderrText);
    const match = LISTENING.exec(line.trim());
    if (!match) throw new Error(`unexpected first line from turnback: ${line}`);
    return {
      loginUrl: line.trim().slice('turnback listening on '.length),
      origin: match[1],
      port: Number(match[2]),
      token,
      agentToken,
      workspace,
      dataDir,
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
