// The service as a person meets it, real processes only: the installed sh hook with no service
// running starts it and its events are recorded; two racing hooks get one service; a service
// killed mid-turn is started again by the next hook and the cut turn recovered; a session the
// service cannot record is told through Claude Code's systemMessage; a store written by the
// per-folder serve of old opens unchanged. Temp HOME and state dir, port 0: never 4820.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as p from '../adapters/claude-code/test/payloads.js';
import { installShHook, runShHook } from '../adapters/claude-code/test/sh-hook.js';
import { runCli } from '../cli/test/spawn-cli.js';
import type { Session, Turn } from '../protocol.js';
import { treeAsText } from '../testkit/tree.js';

let root: string;
let env: NodeJS.ProcessEnv;
let hookBin: string;
let repo: string;
const state = () => path.join(root, 'state', 'turnback');

async function service(): Promise<{ pid: number; port: number; token: string }> {
  const entry = JSON.parse(await readFile(path.join(state(), 'service.json'), 'utf8')) as { pid: number; port: number };
  return { ...entry, token: (await readFile(path.join(state(), 'console-token'), 'utf8')).trim() };
}

async function api<T>(route: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const { port, token } = await service();
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await response.json()) as T;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopService(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | undefined> {
  if (!existsSync(path.join(state(), 'service.json'))) return undefined;
  const { pid } = await service();
  if (!alive(pid)) return pid;
  process.kill(pid, signal);
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  return pid;
}

async function hook(payload: unknown): Promise<string> {
  const result = await runShHook(hookBin, payload, env);
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

const servicesStarted = async () =>
  (await readFile(path.join(state(), 'service.log'), 'utf8')).match(/^turnback listening on /gm)?.length ?? 0;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-service-proc-')));
  env = {
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: path.join(root, 'state'),
    TURNBACK_PORT: '0',
    TURNBACK_TOKEN: '',
    TURNBACK_AGENT_TOKEN: '',
  };
  repo = path.join(root, 'home', 'project');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  await mkdir(path.join(repo, 'src'));
  await writeFile(path.join(repo, 'src', 'app.ts'), 'export const answer = 41;\n');
  hookBin = await installShHook(path.join(root, 'install', 'bin'));
});
afterEach(async () => {
  await stopService();
  await rm(root, { recursive: true, force: true });
});

// Each start runs the CLI from source (tsx): slow on a loaded machine.
describe('the service started by hooks', { timeout: 120_000 }, () => {
  it('is started by the first hook, records a Bash turn from a sub-folder, and two racing hooks get one service', async () => {
    const before = await treeAsText(repo);
    const c = { cwd: path.join(repo, 'src'), sessionId: '11111111-1111-4111-8111-111111111111' };
    const other = { cwd: repo, sessionId: '22222222-2222-4222-8222-222222222222' };
    // Two sessions' first events at once, no service running.
    expect(
      await Promise.all([
        hook(p.userPromptSubmit(c, 'Bump the answer')),
        hook(p.userPromptSubmit(other, 'Look around')),
      ]),
    ).toEqual(['', '']);
    expect(await servicesStarted()).toBe(1);
    const pre = p.bash(c, "sed -i 's/41/42/' app.ts");
    await hook(pre);
    await writeFile(path.join(repo, 'src', 'app.ts'), 'export const answer = 42;\n');
    await hook(p.postToolUse(pre));
    await hook(p.stop(c));

    const { workspaces } = await api<{ workspaces: { root: string; sessions: number }[] }>('/api/workspaces');
    expect(workspaces).toEqual([expect.objectContaining({ root: repo, sessions: 2, recording: true })]);
    const { turns } = await api<{ turns: Turn[] }>(`/api/sessions/${c.sessionId}/turns`);
    expect(turns).toEqual([expect.objectContaining({ title: 'Bump the answer', status: 'committed', execUsed: true })]);
    expect(turns[0].execCommands.map((command) => command.changed)).toEqual([['workspace:/src/app.ts']]);
    await api(`/api/turns/${turns[0].turnId}/rollback`, { method: 'POST', body: {} });
    expect(await treeAsText(repo)).toEqual(before);
    expect(await readFile(path.join(state(), 'hook.log'), 'utf8').catch(() => '')).toBe('');
  });

  it('is started again by the next hook after it was killed mid-turn, which recovers the cut turn as interrupted', async () => {
    const c = { cwd: repo };
    await hook(p.userPromptSubmit(c, 'First try'));
    await hook(p.write(c, path.join(repo, 'src', 'app.ts'), 'changed\n'));
    await writeFile(path.join(repo, 'src', 'app.ts'), 'changed\n');
    const killed = await stopService('SIGKILL');
    await hook(p.userPromptSubmit(c, 'Second try'));
    expect((await service()).pid).not.toBe(killed);
    const { turns } = await api<{ turns: Turn[] }>(`/api/sessions/${p.SESSION_ID}/turns`);
    expect(turns.map((turn) => [turn.title, turn.status, turn.interrupted])).toEqual([
      ['First try', 'committed', true],
      ['Second try', 'active', false],
    ]);
  });

  it('records a session that moves from one git repository to another where its files are: one turn in each', async () => {
    const a = path.join(root, 'home', 'repo-a');
    const b = path.join(root, 'home', 'repo-b');
    for (const dir of [a, b]) {
      await mkdir(dir, { recursive: true });
      expect(spawnSync('git', ['init', '-q', dir]).status).toBe(0);
      await writeFile(path.join(dir, 'keep.txt'), `${path.basename(dir)}\n`);
    }
    const [startA, startB] = [await treeAsText(a), await treeAsText(b)];
    const inA = { cwd: a, sessionId: '33333333-3333-4333-8333-333333333333' };
    const inB = { ...inA, cwd: b };
    const bash = async (c: typeof inA, command: string) => {
      const pre = p.bash(c, command);
      expect(await hook(pre)).toBe('');
      expect(spawnSync('/bin/sh', ['-c', command], { cwd: c.cwd }).status).toBe(0);
      expect(await hook(p.postToolUse(pre))).toBe('');
    };
    // One turn: begun in A, its second command and its end from B (a resume in another folder).
    await hook(p.userPromptSubmit(inA, 'Work on both'));
    await bash(inA, 'echo a > a.txt && rm keep.txt');
    await bash(inB, 'echo b > b.txt && rm keep.txt');
    // A file tool from B on a file of A: recorded in A's turn, where the file is (issue 37 G2).
    expect(await hook(p.write(inB, path.join(a, 'other.txt'), 'x'))).toBe('');
    await hook(p.stop(inB));

    const { workspaces } = await api<{ workspaces: { id: string; root: string }[] }>('/api/workspaces');
    const turnsIn = async (dir: string) => {
      const id = workspaces.find((w) => w.root === dir)!.id;
      const { turns } = await api<{ turns: Turn[] }>(`/api/workspaces/${id}/sessions/${inA.sessionId}/turns`);
      return { id, turns };
    };
    const [inRepoA, inRepoB] = [await turnsIn(a), await turnsIn(b)];
    for (const [{ turns }, file] of [
      [inRepoA, 'a.txt'],
      [inRepoB, 'b.txt'],
    ] as const) {
      expect(turns.map((t) => [t.title, t.status])).toEqual([['Work on both', 'committed']]);
      expect([...(turns[0].execCommands.find((c) => c.tool === 'Bash')?.changed ?? [])].sort()).toEqual([
        `workspace:/${file}`,
        'workspace:/keep.txt',
      ]);
    }
    // The two turns are linked both ways, and undoing A's undoes B's with it.
    expect(inRepoA.turns[0].linked?.map((l) => l.turnId)).toEqual([inRepoB.turns[0].turnId]);
    expect(inRepoB.turns[0].linked?.map((l) => l.turnId)).toEqual([inRepoA.turns[0].turnId]);
    await api(`/api/workspaces/${inRepoA.id}/turns/${inRepoA.turns[0].turnId}/rollback`, { method: 'POST', body: {} });
    expect(await treeAsText(a)).toEqual(startA);
    expect(await treeAsText(b)).toEqual(startB);
  });

  it('tells Claude Code once per session and reason when a session cannot be recorded, and logs each event', async () => {
    const c = { cwd: env.HOME! };
    const told = JSON.parse(await hook(p.userPromptSubmit(c, 'hi'))) as { systemMessage: string };
    expect(told.systemMessage).toMatch(
      /^turnback is not recording this session: the home folder .* itself cannot be a workspace/,
    );
    expect(await hook(p.bash(c, 'ls'))).toBe('');
    const lines = (await readFile(path.join(state(), 'hook.log'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/claude-code not recorded: the home folder/);
    expect((await api<{ workspaces: unknown[] }>('/api/workspaces')).workspaces).toEqual([]);
  });
});

describe('a store written by the per-folder serve of old', { timeout: 120_000 }, () => {
  it("is the service's store of that workspace, unchanged", async () => {
    const before = await treeAsText(repo);
    // Today's serve, its default data dir in the state dir.
    const old = runCli(['serve', '--workspace', repo, '--port', '0'], env);
    const port = Number(/:(\d+)\//.exec(await old.firstLine)![1]);
    const agentToken = (await readFile(path.join(state(), 'agent-token'), 'utf8')).trim();
    const agent = (route: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}/api/agent/${route}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${agentToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    await agent('input', { sessionId: 'old-1', platform: 'claude-code', sessionType: 'cli', content: 'Old turn' });
    await agent('fs/write', { sessionId: 'old-1', uri: 'workspace:/src/app.ts', content: 'old change\n' });
    await agent('turn-end', { sessionId: 'old-1' });
    expect(await old.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const dataDirs = spawnSync('ls', [state()], { encoding: 'utf8' }).stdout;

    // The service, started by a hook from that folder, finds it.
    await hook(p.userPromptSubmit({ cwd: repo }, 'New turn'));
    const { sessions } = await api<{ sessions: Session[] }>('/api/sessions');
    expect(sessions.map((session) => session.sessionId).sort()).toEqual(['old-1', p.SESSION_ID].sort());
    expect(spawnSync('ls', [state()], { encoding: 'utf8' }).stdout).toContain(
      dataDirs.split('\n').find((name) => name.startsWith('project-')),
    );
    const [turn] = (await api<{ turns: Turn[] }>('/api/sessions/old-1/turns')).turns;
    expect(turn.title).toBe('Old turn');
    await api(`/api/turns/${turn.turnId}/rollback`, { method: 'POST', body: {} });
    expect(await treeAsText(repo)).toEqual(before);
  });
});
