// README's first command, `npm ci && npm start` (`turnback demo`), on a shared machine: 4820 taken
// by another user's service must not stop it; it takes a free port and prints a URL that works.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_LINE, runCli, type CliRun } from './test/spawn-cli.js';

let root: string;
let run: CliRun | undefined;
let holder: Server | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-demo-'));
});
afterEach(async () => {
  await run?.stop();
  holder?.close();
  await rm(root, { recursive: true, force: true });
});

/** Listens on `port` when it is free; undefined when someone holds it already (as good here). */
function holdPort(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

describe('turnback demo', { timeout: 120_000 }, () => {
  it('starts on a free port when 4820 is taken, and prints a URL that works', async () => {
    holder = await holdPort(4820);
    run = runCli(['demo', '--workspace', path.join(root, 'demo'), '--data', path.join(root, 'data')], {
      XDG_STATE_HOME: path.join(root, 'state'),
      HOME: path.join(root, 'home'),
    });
    const line = await run.firstLine;
    const match = FIRST_LINE.exec(line);
    expect(match, `${line}\n${run.stderr()}`).not.toBeNull();
    const [, port, token] = match!;
    expect(port).not.toBe('4820');
    const sessions = await fetch(`http://127.0.0.1:${port}/api/sessions`, {
      headers: { Authorization: `Bearer ${decodeURIComponent(token)}` },
    });
    expect(sessions.status).toBe(200);
    expect(((await sessions.json()) as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
  });
});
