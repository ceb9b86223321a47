// The CLI as a process: the first-line contract, the registry file, signals and exit codes.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as hooks from '../adapters/claude-code/test/payloads.js';
import { send } from '../http/test/client.js';
import type { Turn } from '../protocol.js';
import { treeAsText } from '../testkit/tree.js';
import { FIRST_LINE, parseFirstLine, runCli, type CliRun } from './test/spawn-cli.js';

// At least 22 characters: shorter tokens are refused.
const CONSOLE_TOKEN = 'console-token-0123456789abcdef';
const AGENT_TOKEN = 'agent-token-0123456789abcdef';

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

// The person's service (its files in the state dir of `env`) with its default workspace's store in `data`.
const serveArgs = (...extra: string[]) => [
  'serve',
  '--workspace',
  workspace,
  '--data',
  path.join(root, 'data'),
  '--state-dir',
  path.join(env.XDG_STATE_HOME!, 'turnback'),
  '--port',
  '0',
  ...extra,
];

function expectOneLineFailure(run: CliRun, pattern: RegExp): void {
  const lines = run.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^turnback: /);
  expect(lines[0]).toMatch(pattern);
}

describe('turnback serve', () => {
  it('prints exactly the address line first, writes service.json, and removes it on SIGTERM', async () => {
    const run = start(serveArgs('--token', CONSOLE_TOKEN, '--agent-token', AGENT_TOKEN));
    const line = await run.firstLine;
    expect(line).toMatch(FIRST_LINE);
    const { port, token } = parseFirstLine(line);
    expect(token).toBe(CONSOLE_TOKEN);
    expect(line).toBe(`turnback listening on http://127.0.0.1:${port}/?token=${CONSOLE_TOKEN}`);

    const entryFile = path.join(root, 'state', 'turnback', 'service.json');
    expect((await stat(entryFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(entryFile, 'utf8'))).toEqual({
      pid: run.child.pid,
      port,
      version: expect.any(String),
      startedAt: expect.any(String),
      url: `http://127.0.0.1:${port}/`,
    });
    // The default workspace is the one given.
    const workspaces = (await send(port, { path: '/api/workspaces', token: CONSOLE_TOKEN })).json.workspaces;
    expect(workspaces).toEqual([
      expect.objectContaining({ root: await realpath(workspace), isDefault: true, recording: true }),
    ]);

    expect((await send(port, { path: '/api/health', token: AGENT_TOKEN })).json).toMatchObject({ ok: true });
    expect((await send(port, { path: '/api/sessions', token: CONSOLE_TOKEN })).json).toEqual({ sessions: [] });

    expect(await run.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(existsSync(entryFile)).toBe(false);
  });

  it('keeps its tokens in 0600 files of the state dir across restarts, and exits 0 on SIGINT', async () => {
    const run = start(serveArgs());
    const { port, token } = parseFirstLine(await run.firstLine);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const consoleFile = path.join(root, 'state', 'turnback', 'console-token');
    const agentFile = path.join(root, 'state', 'turnback', 'agent-token');
    expect((await readFile(consoleFile, 'utf8')).trim()).toBe(token);
    const agentToken = (await readFile(agentFile, 'utf8')).trim();
    expect(agentToken).toMatch(/^[0-9a-f]{64}$/);
    expect(agentToken).not.toBe(token);
    for (const file of [consoleFile, agentFile]) expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await send(port, { path: '/api/sessions', token })).status).toBe(200);
    expect(await run.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(run.stderr()).not.toContain('warning');

    const again = start(serveArgs());
    expect(parseFirstLine(await again.firstLine).token).toBe(token);
  });

  it('reads tokens from --token-file, and warns that --token is on the command line', async () => {
    const file = path.join(root, 'agent.token');
    await writeFile(file, `${AGENT_TOKEN}\n`, { mode: 0o600 });
    const run = start(serveArgs('--token', CONSOLE_TOKEN, '--agent-token-file', file));
    const { port } = parseFirstLine(await run.firstLine);
    expect((await send(port, { path: '/api/health', token: AGENT_TOKEN })).status).toBe(200);
    expect(run.stderr()).toMatch(/^turnback: warning: --token can be read by other users/m);
  });

  it('refuses a second service for the same user, naming the running one', async () => {
    const first = start(serveArgs());
    const { port } = parseFirstLine(await first.firstLine);
    const second = start(['serve', '--port', '0']);
    expect((await second.exited).code).toBe(2);
    expectOneLineFailure(
      second,
      new RegExp(`already runs for this user \\(pid ${first.child.pid}, http://127.0.0.1:${port}/\\)`),
    );
  });

  it('commits a turn cut by SIGTERM; after a restart on the same data dir it rolls back exactly', async () => {
    await mkdir(path.join(workspace, 'src'));
    await writeFile(path.join(workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
    await writeFile(path.join(workspace, 'notes.md'), '# notes\n', { mode: 0o640 });
    await writeFile(path.join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const before = await treeAsText(workspace);

    const first = start(serveArgs('--agent-token', AGENT_TOKEN));
    const { port } = parseFirstLine(await first.firstLine);
    const agent = (p: string, body: unknown) =>
      send(port, { method: 'POST', path: `/api/agent/${p}`, token: AGENT_TOKEN, body });
    const sessionId = 'cc-session-1';
    const input = await agent('input', {
      sessionId,
      platform: 'claude-code',
      sessionType: 'cli',
      content: 'Change everything',
    });
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

    const second = start(serveArgs('--token', CONSOLE_TOKEN));
    const { port: port2 } = parseFirstLine(await second.firstLine);
    const turns = (await send(port2, { path: `/api/sessions/${sessionId}/turns`, token: CONSOLE_TOKEN })).json.turns;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ turnId: input.json.turnId, status: 'committed', interrupted: false });
    expect(turns[0].fileCount).toBeGreaterThanOrEqual(4);
    const rollback = await send(port2, {
      method: 'POST',
      path: `/api/turns/${input.json.turnId}/rollback`,
      token: CONSOLE_TOKEN,
      body: {},
    });
    expect(rollback.status).toBe(200);
    expect(rollback.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(workspace)).toEqual(before);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  });

  it('after a SIGKILL mid-turn, the turn goes on: the next command is recorded in it, and the undo restores the start', async () => {
    await writeFile(path.join(workspace, 'precious.txt'), 'keep me\n');
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    const before = await treeAsText(workspace);
    const c = { cwd: workspace };
    const first = start(serveArgs('--token', CONSOLE_TOKEN, '--agent-token', AGENT_TOKEN));
    let port = parseFirstLine(await first.firstLine).port;
    const hook = async (payload: unknown) => {
      const answer = await send(port, {
        method: 'POST',
        path: '/api/agent/hook/claude-code',
        token: AGENT_TOKEN,
        body: payload,
      });
      expect(answer.json).toMatchObject({ ok: true, outcome: 'forwarded' });
    };
    /** One Bash call as Claude Code makes it: its PreToolUse, the command, its PostToolUse. */
    const bash = async (command: string) => {
      const pre = hooks.bash(c, command);
      await hook(pre);
      execFileSync('/bin/sh', ['-c', command], { cwd: workspace });
      await hook(hooks.postToolUse(pre));
    };
    await hook(hooks.userPromptSubmit(c, 'Tidy up'));
    await bash('echo one > one.txt');
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    // The next hook starts the service again (as the hook does), and its command is the cut turn's.
    const second = start(serveArgs('--token', CONSOLE_TOKEN, '--agent-token', AGENT_TOKEN));
    port = parseFirstLine(await second.firstLine).port;
    await expect
      .poll(() => second.stdout(), { timeout: 30_000 })
      .toMatch(/^1 agent turn cut short by a crash goes on/m);
    await bash('rm precious.txt');
    await hook(hooks.stop(c));

    const turns = (await send(port, { path: `/api/sessions/${hooks.SESSION_ID}/turns`, token: CONSOLE_TOKEN })).json
      .turns as Turn[];
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ status: 'committed', interrupted: true });
    expect(turns[0].execCommands.map((x) => [x.command, x.changed])).toEqual([
      ['echo one > one.txt', ['workspace:/one.txt']],
      ['rm precious.txt', ['workspace:/precious.txt']],
    ]);
    const undo = await send(port, {
      method: 'POST',
      path: `/api/turns/${turns[0].turnId}/rollback`,
      token: CONSOLE_TOKEN,
      body: {},
    });
    expect(undo.json).toMatchObject({ ok: true, errors: [] });
    expect(await treeAsText(workspace)).toEqual(before);
  });
});

describe('failures to start: one line on stderr, exit code 2', () => {
  it.each([
    [['--token', 'short-token'], /the console token is too short: at least 22 characters/],
    [['--agent-token', 'x'.repeat(21)], /the agent token is too short/],
    [['--token', 'y'.repeat(30), '--agent-token', 'y'.repeat(30)], /must differ/],
  ])('a token refused: %j', async (flags, pattern) => {
    const run = start(serveArgs(...flags));
    expect((await run.exited).code).toBe(2);
    const lines = run
      .stderr()
      .trim()
      .split('\n')
      .filter((line) => !line.includes('warning'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
    expect(run.stdout()).toBe('');
  });

  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = start(serveArgs().map((arg) => (arg === '0' ? String(port) : arg)));
      expect((await run.exited).code).toBe(2);
      expectOneLineFailure(run, new RegExp(`port ${port}.*in use`));
      expect(run.stdout()).toBe('');
      expect(existsSync(path.join(root, 'state', 'turnback', 'service.json'))).toBe(false);
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
    // Another user's service (its own state dir) on the same data dir.
    env = { XDG_STATE_HOME: path.join(root, 'other-state') };
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
    expectOneLineFailure(
      run,
      new RegExp(`the store ${path.join(store, 'turnback.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged`),
    );
  });

  it('an unknown command or flag prints the usage', async () => {
    const cases = [['bogus'], ['serve', '--workspace', workspace, '--nope'], ['demo', '--scopes', 'x']];
    const runs = cases.map((args) => start(args));
    for (const [index, run] of runs.entries()) {
      expect((await run.exited).code, cases[index].join(' ')).toBe(2);
      expect(run.stderr()).toContain('usage:');
      expect(run.stdout()).toBe('');
    }
  });

  it('--help, and turnback alone, print the usage on stdout and exit 0', async () => {
    const runs = [[], ['--help'], ['serve', '--help'], ['demo', '--help']].map((args) => start(args));
    for (const run of runs) {
      expect((await run.exited).code).toBe(0);
      expect(run.stdout()).toContain('turnback start');
      expect(run.stdout()).toContain('turnback serve [--workspace <dir>]');
    }
  });

  it('--version prints the package version', async () => {
    const run = start(['--version']);
    expect((await run.exited).code).toBe(0);
    expect(run.stdout()).toMatch(/^turnback \d+\.\d+\.\d+\n$/);
  });
});
