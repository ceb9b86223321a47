// The hook must never block or break the agent: whatever goes wrong, it exits 0 and leaves
// one line in hook.log.
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as p from '../test/payloads.js';
import { listenOnServiceSocket, writeServiceFiles } from '../test/service-entry.js';
import { runHook } from '../../../testkit/spawn.js';

let root: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
const servers: Server[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-hook-fail-'));
  workspace = join(root, 'ws');
  await mkdir(workspace);
  env = { XDG_STATE_HOME: join(root, 'state') };
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(root, { recursive: true, force: true });
});

const logLines = async () =>
  (await readFile(join(root, 'state', 'turnback', 'hook.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

async function register(port: number, pid = process.pid) {
  await writeServiceFiles(join(root, 'state'), { port, pid, agentToken: 'agent-token-0123456789abcdef' });
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A stand-in for the service on its socket (where the hook talks), and service.json naming it. */
async function listenAsService(handler: Parameters<typeof createServer>[1]): Promise<void> {
  const server = createServer(handler);
  servers.push(server);
  await listenOnServiceSocket(server, join(root, 'state'));
  await register(1);
}

describe('turnback hook claude-code when things go wrong', { timeout: 60_000 }, () => {
  it('when no service runs and none can start, tells the person once per session (systemMessage) and logs each time', async () => {
    // A token file the service refuses: it exits at once.
    await mkdir(join(root, 'state', 'turnback'), { recursive: true });
    await writeFile(join(root, 'state', 'turnback', 'console-token'), 'short\n');
    const startEnv = { ...env, TURNBACK_PORT: '0' };
    const first = await runHook(p.userPromptSubmit({ cwd: workspace }, 'hello'), startEnv);
    expect(first.code).toBe(0);
    const told = JSON.parse(first.stdout) as { systemMessage: string };
    expect(told.systemMessage).toMatch(
      /^turnback is not recording this session: the turnback service did not start \(turnback: the token file .* is too short/,
    );
    const second = await runHook(p.bash({ cwd: workspace }, 'ls'), startEnv);
    expect(second).toMatchObject({ code: 0, stdout: '' });
    const lines = await logLines();
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain('the turnback service did not start');
  });

  it('when nothing listens where service.json points (its pid taken by another process), starts a service and delivers there', async () => {
    const port = await listen(() => {});
    servers[0].close();
    await register(port);
    const startEnv = { ...env, HOME: root, TURNBACK_PORT: '0' };
    const result = await runHook(p.userPromptSubmit({ cwd: workspace }, 'hello'), startEnv);
    const entry = JSON.parse(await readFile(join(root, 'state', 'turnback', 'service.json'), 'utf8')) as {
      pid: number;
      port: number;
    };
    try {
      expect(result).toMatchObject({ code: 0, stdout: '' });
      expect(entry.port).not.toBe(port);
      const token = (await readFile(join(root, 'state', 'turnback', 'console-token'), 'utf8')).trim();
      const sessions = await (
        await fetch(`http://127.0.0.1:${entry.port}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } })
      ).json();
      expect(sessions.sessions.map((s: { title: string }) => s.title)).toEqual(['hello']);
      expect(await logLines()).toEqual([]);
    } finally {
      process.kill(entry.pid, 'SIGTERM');
      for (let i = 0; i < 400; i++) {
        try {
          process.kill(entry.pid, 0);
        } catch {
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  });

  it("when the service dies while it has a tool's event, starts a service and delivers there", async () => {
    // A service SIGKILLed mid-request: the connection ends with no answer.
    await listenAsService((req) => req.socket.destroy());
    const startEnv = { ...env, HOME: root, TURNBACK_PORT: '0' };
    const result = await runHook(p.bash({ cwd: workspace }, 'rm precious.txt'), startEnv);
    const entry = JSON.parse(await readFile(join(root, 'state', 'turnback', 'service.json'), 'utf8')) as {
      pid: number;
      port: number;
    };
    try {
      expect(result).toMatchObject({ code: 0, stdout: '' });
      expect(entry.pid).not.toBe(process.pid);
      expect(await logLines()).toEqual([]);
    } finally {
      if (entry.pid !== process.pid) process.kill(entry.pid, 'SIGTERM');
      for (let i = 0; i < 400 && entry.pid !== process.pid; i++) {
        try {
          process.kill(entry.pid, 0);
        } catch {
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  });

  it("delivers over the service's socket only: the TCP port in service.json never sees the agent token", async () => {
    let overTcp = 0;
    const port = await listen((_req, res) => {
      overTcp++;
      res.end('{}');
    });
    const authorizations: (string | undefined)[] = [];
    const service = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      req.resume();
      res.end('{"ok":true,"outcome":"forwarded","calls":1}');
    });
    servers.push(service);
    await listenOnServiceSocket(service, join(root, 'state'));
    await register(port);
    const result = await runHook(p.userPromptSubmit({ cwd: workspace }, 'hello'), env);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(authorizations).toEqual(['Bearer agent-token-0123456789abcdef']);
    expect(overTcp).toBe(0);
    expect(await logLines()).toEqual([]);
  });

  it('gives up on a server that never answers, exits 0 and logs it', async () => {
    await listenAsService(() => {
      /* never answers */
    });
    const result = await runHook(p.userPromptSubmit({ cwd: workspace }, 'hello'), env);
    expect(result.code).toBe(0);
    expect((await logLines()).join('\n')).toContain('gave up');
  });

  it('exits 0 and logs a server error answer', async () => {
    await listenAsService((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'BAD_URI', message: 'bad' } }));
    });
    const result = await runHook(p.write({ cwd: workspace }, join(workspace, 'a.ts'), 'x'), env);
    expect(result.code).toBe(0);
    expect((await logLines()).join('\n')).toMatch(/hook\/claude-code answered 400.*BAD_URI/);
  });

  it.each([
    ['not JSON', '{"session_id": "abc", '],
    ['empty input', ''],
    ['a bad session id', JSON.stringify(p.userPromptSubmit({ cwd: '/', sessionId: '../../etc' }, 'x'))],
  ])('exits 0 and logs malformed input: %s', async (_label, stdin) => {
    const result = await runHook(stdin, env);
    expect(result.code).toBe(0);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('malformed input');
  });

  it('exits 0 without logging or forwarding an event it does not use', async () => {
    let requests = 0;
    await listenAsService((_req, res) => {
      requests++;
      res.end('{}');
    });
    const sessionStart = { ...p.stop({ cwd: workspace }), hook_event_name: 'SessionStart', source: 'startup' };
    const read = p.preToolUse({ cwd: workspace }, 'Read', { file_path: join(workspace, 'a.ts') });
    for (const payload of [sessionStart, read]) expect((await runHook(payload, env)).code).toBe(0);
    expect(requests).toBe(0);
    expect(await logLines()).toEqual([]);
  });
});
