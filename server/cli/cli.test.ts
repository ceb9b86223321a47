// The CLI as a process: the first-line contract, the registry file, signals and exit codes.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { send } from '../http/test/client.js';
import { treeAsText } from '../testkit/tree.js';
import { FIRST_LINE, parseFirstLine, runCli, type CliRun } from './test/spawn-cli.js';

let root: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
const running: CliRun[] = [];

function start(args: string[]): CliRun {
  const run = runCli(args, env);
  running.push(run);
  return run;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-cli-'));
  workspace = path.join(root, 'workspace');
  await mkdir(workspace);
  env = { XDG_STATE_HOME: path.join(root, 'state') };
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((run) => run.stop('SIGKILL')));
  await rm(root, { recursive: true, force: true });
});

const serveArgs = (...extra: string[]) => ['serve', '--workspace', workspace, '--data', path.join(root, 'data'), '--port', '0', ...extra];

function expectOneLineFailure(run: CliRun, pattern: RegExp): void {
  const lines = run.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^turnback: /);
  expect(lines[0]).toMatch(pattern);
}

describe('turnback serve', () => {
  it('prints exactly the address line first, writes the registry entry, and removes it on SIGTERM', async () => {
    const run = start(serveArgs('--token', 'console-tok', '--agent-token', 'agent-tok'));
    const line = await run.firstLine;
    expect(line).toMatch(FIRST_LINE);
    const { port, token } = parseFirstLine(line);
    expect(token).toBe('console-tok');
    expect(line).toBe(`turnback listening on http://127.0.0.1:${port}/?token=console-tok`);

    const entryFile = path.join(root, 'state', 'turnback', 'servers', `${port}.json`);
    expect((await stat(entryFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(entryFile, 'utf8'))).toEqual({
      workspace: await realpath(workspace), port, agentToken: 'agent-tok', pid: run.child.pid,
    });

    expect((await send(port, { path: '/api/health', token: 'agent-tok' })).json).toMatchObject({ ok: true });
    expect((await send(port, { path: '/api/sessions', token: 'console-tok' })).json).toEqual({ sessions: [] });

    expect(await run.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(existsSync(entryFile)).toBe(false);
  });

  it('takes random tokens when none is given, and exits 0 on SIGINT', async () => {
    const run = start(serveArgs());
    const { port, token } = parseFirstLine(await run.firstLine);
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect((await send(port, { path: '/api/sessions', token })).status).toBe(200);
    expect(await run.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('commits a turn cut by SIGTERM; after a restart on the same data dir it rolls back exactly', async () => {
    await mkdir(path.join(workspace, 'src'));
    await writeFile(path.join(workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
    await writeFile(path.join(workspace, 'notes.md'), '# notes\n', { mode: 0o640 });
    await writeFile(path.join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const before = await treeAsText(workspace);

    const first = start(serveArgs('--agent-token', 'agent-tok'));
    const { port } = parseFirstLine(await first.firstLine);
    const agent = (p: string, body: unknown) => send(port, { method: 'POST', path: `/api/agent/${p}`, token: 'agent-tok', body });
    const sessionId = 'cc-session-1';
    const input = await agent('input', { sessionId, platform: 'claude-code', sessionType: 'cli', content: 'Change everything' });
    expect(input.json.turnId).toEqual(expect.any(String));
    for (const [p, body] of [
      ['fs/write', { sessionId, uri: 'workspace:/src/app.ts', content: 'export const answer = 42;\n' }],
      ['fs/write', { sessionId, uri: 'workspace:/lib/new/deep.ts', content: 'new\n' }],
      ['fs/delete', { sessionId, uri: 'workspace:/notes.md' }],
      ['fs/rename', { sessionId, from: 'workspace:/run.sh', to: 'workspace:/scripts.sh' }],
    ] as const) {
      expect((await agent(p, body)).status, p).toBe(200);
    }
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const second = start(serveArgs('--token', 'tok'));
    const { port: port2 } = parseFirstLine(await second.firstLine);
    const turns = (await send(port2, { path: `/api/sessions/${sessionId}/turns`, token: 'tok' })).json.turns;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ turnId: input.json.turnId, status: 'committed', interrupted: false });
    expect(turns[0].fileCount).toBeGreaterThanOrEqual(4);
    const rollback = await send(port2, { method: 'POST', path: `/api/turns/${input.json.turnId}/rollback`, token: 'tok', body: {} });
    expect(rollback.status).toBe(200);
    expect(rollback.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(workspace)).toEqual(before);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  });

  it('after a crash mid-turn, tells what recovery did and shows the turn as interrupted', async () => {
    const first = start(serveArgs('--agent-token', 'agent-tok'));
    const { port } = parseFirstLine(await first.firstLine);
    const sessionId = 'cc-crash';
    await send(port, { method: 'POST', path: '/api/agent/input', token: 'agent-tok', body: { sessionId, platform: 'claude-code', sessionType: 'cli', content: 'Work' } });
    await send(port, { method: 'POST', path: '/api/agent/fs/write', token: 'agent-tok', body: { sessionId, uri: 'workspace:/a.txt', content: 'a' } });
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    const second = start(serveArgs('--token', 'tok'));
    const { port: port2 } = parseFirstLine(await second.firstLine);
    const turns = (await send(port2, { path: `/api/sessions/${sessionId}/turns`, token: 'tok' })).json.turns;
    expect(turns).toEqual([expect.objectContaining({ status: 'committed', interrupted: true })]);
    expect(second.stdout()).toMatch(/^recovered 1 turn cut short by a crash/m);
  });
});

describe('failures to start: one line on stderr, exit code 2', () => {
  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = start(['serve', '--workspace', workspace, '--data', path.join(root, 'data'), '--port', String(port)]);
      expect((await run.exited).code).toBe(2);
      expectOneLineFailure(run, new RegExp(`port ${port}.*in use`));
      expect(run.stdout()).toBe('');
      expect(existsSync(path.join(root, 'state', 'turnback', 'servers', `${port}.json`))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('a workspace that does not exist, or is a file', async () => {
    const missing = start(['serve', '--workspace', path.join(root, 'nope'), '--port', '0']);
    expect((await missing.exited).code).toBe(2);
    expectOneLineFailure(missing, /workspace .*nope does not exist/);
    await writeFile(path.join(root, 'file'), 'x');
    const file = start(['serve', '--workspace', path.join(root, 'file'), '--port', '0']);
    expect((await file.exited).code).toBe(2);
    expectOneLineFailure(file, /not a directory/);
  });

  it('a data dir held by another live server', async () => {
    const first = start(serveArgs());
    await first.firstLine;
    const second = start(serveArgs());
    expect((await second.exited).code).toBe(2);
    expectOneLineFailure(second, /data dir .* is held by another live turnback server \(pid \d+\)/);
    expect(first.child.exitCode).toBeNull();
  });

  it('a store whose database is damaged, named in the line', async () => {
    const store = path.join(root, 'data', 'store');
    await mkdir(store, { recursive: true });
    await writeFile(path.join(store, 'turnback.db'), 'not a database\n'.repeat(500));
    const run = start(serveArgs());
    expect((await run.exited).code).toBe(2);
    expectOneLineFailure(run, new RegExp(`the store ${path.join(store, 'turnback.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged`));
  });

  it('an unknown command or flag prints the usage', async () => {
    const cases = [['bogus'], [], ['serve', '--workspace', workspace, '--nope'], ['demo', '--scopes', 'x']];
    const runs = cases.map((args) => start(args));
    for (const [index, run] of runs.entries()) {
      expect((await run.exited).code, cases[index].join(' ')).toBe(2);
      expect(run.stderr()).toContain('usage:');
      expect(run.stdout()).toBe('');
    }
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const runs = [['--help'], ['serve', '--help'], ['demo', '--help']].map((args) => start(args));
    for (const run of runs) {
      expect((await run.exited).code).toBe(0);
      expect(run.stdout()).toContain('turnback serve --workspace');
    }
  });
});
