// turnback start / status / url / stop as processes, on a temp HOME and state dir, port 0.
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './test/spawn-cli.js';

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
        `^turnback \\d+\\.\\d+\\.\\d+ running \\(pid \\d+\\) at ${url.replace(/[.?]/g, '\\$&')}\\n1 workspace:\\n  project  ${path.join(root, 'home', 'project')}  0 sessions, [0-9.]+ (B|KiB|MiB), recording\\n$`,
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
});
