// Starts a real server on port 0 around a fake engine, with fixed tokens, for one test file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../server.js';
import { createFakeEngine, type FakeEngine } from './fake-engine.js';

export const CONSOLE_TOKEN = 'console-token-0123456789';
export const AGENT_TOKEN = 'agent-token-9876543210';

export interface Harness {
  server: RunningServer;
  engine: FakeEngine;
  errors: string[];
  close(): Promise<void>;
}

export async function startFakeServer(options: { distDir?: string; maxBodyBytes?: number } = {}): Promise<Harness> {
  const engine = createFakeEngine();
  const errors: string[] = [];
  const emptyDist = options.distDir ? undefined : await mkdtemp(path.join(tmpdir(), 'turnback-dist-'));
  const server = await startServer({
    engine,
    port: 0,
    token: CONSOLE_TOKEN,
    agentToken: AGENT_TOKEN,
    distDir: options.distDir ?? emptyDist,
    maxBodyBytes: options.maxBodyBytes,
    log: { info: () => {}, error: (message) => errors.push(message) },
  });
  return {
    server,
    engine,
    errors,
    close: async () => {
      await server.close();
      if (emptyDist) await rm(emptyDist, { recursive: true, force: true });
    },
  };
}
