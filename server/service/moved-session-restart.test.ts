// A session that moves between two git repositories across a SIGKILL of the service (issue 37,
// G1 with G2, found by the soak): the next hook starts the service again, and the session's
// turns stay whole: a move to the other repository after the restart begins its linked turn
// there, and a prompt after the restart ends the turn the crash left going on in the other one.
// Real processes: the installed sh hook, the service it starts. Temp HOME and state dir, port 0.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as p from '../adapters/claude-code/test/payloads.js';
import { installShHook, runShHook } from '../adapters/claude-code/test/sh-hook.js';
import type { Turn } from '../protocol.js';
import { treeAsText } from '../testkit/tree.js';

let root: string;
let env: NodeJS.ProcessEnv;
let hookBin: string;
let a: string;
let b: string;
const state = () => path.join(root, 'state', 'turnback');
const SESSION = '55555555-5555-4555-8555-555555555555';

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

async function stopService(signal: NodeJS.Signals): Promise<void> {
  if (!existsSync(path.join(state(), 'service.json'))) return;
  const { pid } = await service();
  if (!alive(pid)) return;
  process.kill(pid, signal);
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function hook(payload: unknown): Promise<void> {
  const result = await runShHook(hookBin, payload, env);
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe('');
}

/** A Bash call as Claude Code makes it in `cwd`: its pre hook, the command, its post hook. */
async function bash(cwd: string, command: string): Promise<void> {
  const pre = p.bash({ cwd, sessionId: SESSION }, command);
  await hook(pre);
  expect(spawnSync('/bin/sh', ['-c', command], { cwd }).status).toBe(0);
  await hook(p.postToolUse(pre));
}

async function turnsIn(dir: string): Promise<Turn[]> {
  const { workspaces } = await api<{ workspaces: { id: string; root: string }[] }>('/api/workspaces');
  const id = workspaces.find((w) => w.root === dir)!.id;
  return (await api<{ turns: Turn[] }>(`/api/workspaces/${id}/sessions/${SESSION}/turns`)).turns;
}

async function undo(dir: string, turn: Turn): Promise<void> {
  const { workspaces } = await api<{ workspaces: { id: string; root: string }[] }>('/api/workspaces');
  const id = workspaces.find((w) => w.root === dir)!.id;
  const answer = await api<{ ok?: boolean }>(`/api/workspaces/${id}/turns/${turn.turnId}/rollback`, {
    method: 'POST',
    body: { onlyHere: true },
  });
  expect(answer.ok, JSON.stringify(answer)).not.toBe(false);
}

const files = (turn: Turn) => turn.execCommands.flatMap((command) => command.changed).sort();

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-moved-restart-')));
  env = {
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: path.join(root, 'state'),
    TURNBACK_PORT: '0',
    TURNBACK_TOKEN: '',
    TURNBACK_AGENT_TOKEN: '',
  };
  a = path.join(root, 'home', 'repo-a');
  b = path.join(root, 'home', 'repo-b');
  for (const dir of [a, b]) {
    await mkdir(dir, { recursive: true });
    expect(spawnSync('git', ['init', '-q', dir]).status).toBe(0);
    await writeFile(path.join(dir, 'keep.txt'), `${path.basename(dir)}\n`);
  }
  hookBin = await installShHook(path.join(root, 'install', 'bin'));
});
afterEach(async () => {
  await stopService('SIGTERM');
  await rm(root, { recursive: true, force: true });
});

// Each start runs the CLI from source (tsx): slow on a loaded machine.
describe('a session moving between two repositories across a SIGKILL', { timeout: 180_000 }, () => {
  it('begins its linked turn in the other repository when it moves there after the restart', async () => {
    const [startA, startB] = [await treeAsText(a), await treeAsText(b)];
    await hook(p.userPromptSubmit({ cwd: a, sessionId: SESSION }, 'Work on both'));
    await bash(a, 'echo a > a.txt');
    await stopService('SIGKILL');
    // The next hook starts the service again; the session's command now runs in B.
    await bash(b, 'echo b > b.txt && rm keep.txt');
    await hook(p.stop({ cwd: b, sessionId: SESSION }));

    const [turnA] = await turnsIn(a);
    const turnsB = await turnsIn(b);
    expect(turnsB.map((t) => [t.title, t.status])).toEqual([['Work on both', 'committed']]);
    expect(files(turnsB[0])).toEqual(['workspace:/b.txt', 'workspace:/keep.txt']);
    expect(turnA.status).toBe('committed');
    expect(files(turnA)).toEqual(['workspace:/a.txt']);
    expect(turnsB[0].linked?.map((l) => l.turnId)).toEqual([turnA.turnId]);
    await undo(a, turnA);
    await undo(b, turnsB[0]);
    expect(await treeAsText(a)).toEqual(startA);
    expect(await treeAsText(b)).toEqual(startB);
  });

  it("ends the turn the crash left going on in the other repository with the session's next prompt", async () => {
    const [startA, startB] = [await treeAsText(a), await treeAsText(b)];
    await hook(p.userPromptSubmit({ cwd: a, sessionId: SESSION }, 'First'));
    await bash(a, 'echo a > a.txt');
    await bash(b, 'echo b > b.txt');
    await stopService('SIGKILL');
    // The next prompt, from A, restarts the service: the first turn ends in both repositories.
    await hook(p.userPromptSubmit({ cwd: a, sessionId: SESSION }, 'Second'));
    // Ended now, not left to run for minutes taking what happens in B meanwhile.
    expect((await turnsIn(b)).map((t) => [t.title, t.status])).toEqual([['First', 'committed']]);
    const between = await treeAsText(b);
    await bash(b, 'echo c > c.txt && rm keep.txt');
    await hook(p.stop({ cwd: b, sessionId: SESSION }));

    const turnsB = await turnsIn(b);
    expect(turnsB.map((t) => [t.title, t.status])).toEqual([
      ['First', 'committed'],
      ['Second', 'committed'],
    ]);
    expect(files(turnsB[0])).toEqual(['workspace:/b.txt']);
    expect(files(turnsB[1])).toEqual(['workspace:/c.txt', 'workspace:/keep.txt']);
    await undo(b, turnsB[1]);
    expect(await treeAsText(b)).toEqual(between);
    await undo(b, turnsB[0]);
    expect(await treeAsText(b)).toEqual(startB);
    const turnsA = await turnsIn(a);
    expect(turnsA.map((t) => t.status)).toEqual(['committed', 'committed']);
    await undo(a, turnsA[0]);
    expect(await treeAsText(a)).toEqual(startA);
  });
});
