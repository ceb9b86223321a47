// turnback start / status / url / stop as processes, on a temp HOME and state dir, port 0.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './test/spawn-cli.js';

/** Listens on `port` when it is free; undefined when someone holds it already. */
async function holdPort(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

let root: string;
let env: NodeJS.ProcessEnv;

async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-commands-')));
  await mkdir(path.join(root, 'home', 'project', '.git'), { recursive: true });
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state'), TURNBACK_PORT: '0' };
});
afterEach(async () => {
  await cli('stop');
  await rm(root, { recursive: true, force: true });
});

describe('the service commands', { timeout: 120_000 }, () => {
  it('with no service: status and url exit 2 with one line, stop says so and exits 0', async () => {
    expect(await cli('status')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'turnback: no turnback service is running (start it with turnback start)\n',
    });
    expect(await cli('status', '--json')).toMatchObject({ code: 2, stdout: '{"running":false}\n' });
    expect((await cli('url')).code).toBe(2);
    expect(await cli('stop')).toEqual({ code: 0, stdout: 'no turnback service is running\n', stderr: '' });
  });

  it('start runs one service in the background and is idempotent; status, url and stop address it', async () => {
    const first = await cli('start');
    expect(first.code).toBe(0);
    const match = /^turnback running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64}))\n$/.exec(first.stdout);
    expect(match).not.toBeNull();
    const [, url, port, token] = match!;
    expect(token).toBe((await readFile(path.join(root, 'state', 'turnback', 'console-token'), 'utf8')).trim());
    expect(await cli('start')).toEqual(first);
    expect(await cli('url')).toEqual({ code: 0, stdout: `${url}\n`, stderr: '' });

    const register = await fetch(`http://127.0.0.1:${port}/api/workspaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: path.join(root, 'home', 'project') }),
    });
    expect(register.status).toBe(200);
    const status = await cli('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `^turnback \\d+\\.\\d+\\.\\d+ running \\(pid \\d+\\) at ${url.replace(/[.?]/g, '\\$&')}\\n1 workspace:\\n  project  ${path.join(root, 'home', 'project')}  0 sessions, [0-9.]+ (B|KiB|MiB) \\(contents [0-9.]+ (B|KiB|MiB) of a [0-9.]+ GiB budget\\), recording\\n$`,
      ),
    );
    const json = JSON.parse((await cli('status', '--json')).stdout);
    expect(json).toMatchObject({
      running: true,
      port: Number(port),
      url,
      workspaces: [{ name: 'project', recording: true, sessions: 0 }],
    });

    const stop = await cli('stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/^turnback stopped \(pid \d+\)\n$/);
    expect((await cli('status')).code).toBe(2);
  });

  it("talks over the service's socket (0600): the TCP port in service.json never sees the console token", async () => {
    expect((await cli('start')).code).toBe(0);
    const socket = path.join(root, 'state', 'turnback', 'service.sock');
    const mode = (await stat(socket)).mode;
    expect(mode & 0o777).toBe(0o600);
    // Another user's listener where service.json points: the CLI must not talk to it.
    const seen: string[] = [];
    const recorder = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const file = path.join(root, 'state', 'turnback', 'service.json');
      const entry = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const port = (recorder.address() as AddressInfo).port;
      await writeFile(file, `${JSON.stringify({ ...entry, port, url: `http://127.0.0.1:${port}/` })}\n`);
      const status = await cli('status', '--json');
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ running: true, workspaces: [] });
      expect(seen).toEqual([]);
    } finally {
      recorder.closeAllConnections();
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  it('a restarted service listens on the port it had last time, so an open console finds it again', async () => {
    delete env.TURNBACK_PORT;
    // 4820 taken (here, or already by someone else): the first start takes some other port.
    const holder = await holdPort(4820);
    try {
      const port = (text: string) => /127\.0\.0\.1:(\d+)\//.exec(text)?.[1];
      const first = port((await cli('start')).stdout);
      expect(first).toBeDefined();
      expect(await readFile(path.join(root, 'state', 'turnback', 'last-port'), 'utf8')).toBe(`${first}\n`);
      expect((await cli('stop')).code).toBe(0);
      expect(port((await cli('start')).stdout)).toBe(first);
    } finally {
      holder?.close();
    }
  });
});
