// A session that spans two projects (issue 37 G2): its prompt and a command in repo A, then its
// cwd moves to repo B (a resume in another folder) for a command and a file tool's Write, and a
// file tool's edit of B's file made from A's cwd. One turn per project, linked both ways, through
// the service's hook route as the hooks send them.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeOfHookEvent } from '../adapters/hosts.js';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import { openEngine } from '../engine/index.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import type { Turn } from '../protocol.js';
import { workspaceIdOf } from '../state-dir.js';
import { treeAsText } from '../testkit/tree.js';
import { WorkspaceHost } from './host.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
const SESSION = '44444444-4444-4444-8444-444444444444';
let root: string;
let host: WorkspaceHost;
let server: RunningServer;
const repo = (name: 'alpha' | 'beta') => path.join(root, 'home', name);
const id = (name: 'alpha' | 'beta') => workspaceIdOf(repo(name));

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-linked-')));
  const env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state') };
  for (const name of ['alpha', 'beta'] as const) {
    await mkdir(repo(name), { recursive: true });
    execFileSync('git', ['init', '-q', repo(name)]);
    await writeFile(path.join(repo(name), 'app.txt'), `${name} v1\n`);
    await writeFile(path.join(repo(name), 'run.sh'), `#!/bin/sh\necho ${name}\n`);
    await chmod(path.join(repo(name), 'run.sh'), 0o755);
  }
  host = new WorkspaceHost({ env, engineOptions: { scopes: ['claude-code:*'] }, open: openEngine });
  server = await startServer({
    source: host,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    routes: claudeCodeRoutes(),
    readHookPlace: placeOfHookEvent,
    log: { error() {} },
  });
});
afterEach(async () => {
  await server?.close();
  await host?.close(1_000);
  await rm(root, { recursive: true, force: true });
});

const get = (route: string) => send(server.port, { path: route, token: TOKEN });
const post = (route: string, body: unknown) => send(server.port, { method: 'POST', path: route, token: TOKEN, body });
async function hook(event: unknown): Promise<void> {
  const answer = await send(server.port, {
    method: 'POST',
    path: '/api/agent/hook/claude-code',
    token: AGENT,
    body: event,
  });
  expect(answer.json.outcome, JSON.stringify(answer.json)).toBe('forwarded');
}

/** A Bash call as the host makes it: its pre hook, the command's effect, its post hook. */
async function bash(cwd: string, effect: () => Promise<void>): Promise<void> {
  const pre = p.bash({ cwd, sessionId: SESSION }, 'change things');
  await hook(pre);
  await effect();
  await hook(p.postToolUse(pre));
}

/** A file tool's Write of `file` with the session's cwd at `cwd`. */
async function fileWrite(cwd: string, file: string, content: string): Promise<void> {
  const pre = p.write({ cwd, sessionId: SESSION }, file, content);
  await hook(pre);
  await writeFile(file, content);
}

async function turnsOf(name: 'alpha' | 'beta'): Promise<Turn[]> {
  return (await get(`/api/workspaces/${id(name)}/sessions/${SESSION}/turns`)).json.turns as Turn[];
}

/** The session's turn in each repo, once the host has ended it. */
async function spanTwoProjects(): Promise<{ a: Turn; b: Turn }> {
  const a = repo('alpha');
  const b = repo('beta');
  await hook(p.userPromptSubmit({ cwd: a, sessionId: SESSION }, 'change both projects'));
  await bash(a, async () => {
    await writeFile(path.join(a, 'app.txt'), 'alpha v2\n');
    await chmod(path.join(a, 'run.sh'), 0o644);
  });
  // Resumed in the other folder: the same session's events now come from B.
  await bash(b, async () => {
    await writeFile(path.join(b, 'app.txt'), 'beta v2\n');
    await chmod(path.join(b, 'run.sh'), 0o700);
  });
  await fileWrite(b, path.join(b, 'new.txt'), 'written by the Write tool\n');
  await hook(p.stop({ cwd: b, sessionId: SESSION }));
  const [turnA] = await turnsOf('alpha');
  const [turnB] = await turnsOf('beta');
  return { a: turnA, b: turnB };
}

describe('a session that spans two projects', () => {
  it('gets one turn per project, linked both ways', async () => {
    const { a, b } = await spanTwoProjects();
    expect(a.status).toBe('committed');
    expect(b.status).toBe('committed');
    expect(a.linked).toEqual([{ workspaceId: id('beta'), root: repo('beta'), turnId: b.turnId }]);
    expect(b.linked).toEqual([{ workspaceId: id('alpha'), root: repo('alpha'), turnId: a.turnId }]);
    const files = async (name: 'alpha' | 'beta', turnId: string) =>
      ((await get(`/api/workspaces/${id(name)}/turns/${turnId}`)).json.files as { uri: string }[])
        .map((f) => f.uri)
        .sort();
    expect(await files('alpha', a.turnId)).toEqual(['workspace:/app.txt', 'workspace:/run.sh']);
    expect(await files('beta', b.turnId)).toEqual(['workspace:/app.txt', 'workspace:/new.txt', 'workspace:/run.sh']);
    // GET of the turn carries the link too.
    expect((await get(`/api/workspaces/${id('alpha')}/turns/${a.turnId}`)).json.turn.linked).toEqual(a.linked);
  });

  it("records a file tool's edit of another project's file in that project's turn", async () => {
    const a = repo('alpha');
    const b = repo('beta');
    await hook(p.userPromptSubmit({ cwd: a, sessionId: SESSION }, 'edit the other project'));
    await bash(a, () => writeFile(path.join(a, 'app.txt'), 'alpha v2\n'));
    // The cwd stays in A; the file is B's.
    await fileWrite(a, path.join(b, 'app.txt'), 'beta from the Write tool\n');
    await hook(p.stop({ cwd: a, sessionId: SESSION }));
    const [turnA] = await turnsOf('alpha');
    const [turnB] = await turnsOf('beta');
    expect(turnB.fileCount).toBe(1);
    expect(turnA.linked?.map((l) => l.turnId)).toEqual([turnB.turnId]);
    expect(turnB.linked?.map((l) => l.turnId)).toEqual([turnA.turnId]);
    expect(turnA.linked?.map((l) => l.turnId)).toEqual([turnB.turnId]);
  });
});

describe('undo of a linked turn', () => {
  const trees = async () => ({ alpha: await treeAsText(repo('alpha')), beta: await treeAsText(repo('beta')) });
  const rollback = (name: 'alpha' | 'beta', turnId: string, body: object = {}) =>
    post(`/api/workspaces/${id(name)}/turns/${turnId}/rollback`, body);

  it("undoes both projects' turns, byte and mode exact; the redo brings both back", async () => {
    const start = await trees();
    const { a } = await spanTwoProjects();
    const end = await trees();
    const plan = (await post(`/api/workspaces/${id('alpha')}/turns/${a.turnId}/preview`, {})).json;
    expect(plan.linked.map((l: { root: string }) => l.root)).toEqual([repo('beta')]);
    expect(plan.linked[0].plan.actions.map((x: { uri: string }) => x.uri).sort()).toEqual([
      'workspace:/app.txt',
      'workspace:/new.txt',
      'workspace:/run.sh',
    ]);
    const undo = (await rollback('alpha', a.turnId)).json;
    expect(undo).toMatchObject({ ok: true, linked: [{ workspaceId: id('beta'), result: { ok: true } }] });
    expect(await trees()).toEqual(start);
    // The redo: the undo's own rollback turn, undone with the linked one.
    const redo = (await rollback('alpha', undo.rollbackTurnId)).json;
    expect(redo).toMatchObject({ ok: true, linked: [{ workspaceId: id('beta'), result: { ok: true } }] });
    expect(await trees()).toEqual(end);
  });

  it('undoes one project alone with onlyHere', async () => {
    const start = await trees();
    const { a, b } = await spanTwoProjects();
    const end = await trees();
    const undo = (await rollback('alpha', a.turnId, { onlyHere: true })).json;
    expect(undo.ok).toBe(true);
    expect(undo.linked).toBeUndefined();
    expect(await trees()).toEqual({ alpha: start.alpha, beta: end.beta });
    // B's turn then goes back alone: its linked turn is undone already.
    const alone = (await rollback('beta', b.turnId)).json;
    expect(alone.ok).toBe(true);
    expect(alone.linked).toBeUndefined();
    expect(await trees()).toEqual(start);
  });

  it('applies nothing when one side conflicts, and says which project', async () => {
    const { a } = await spanTwoProjects();
    await writeFile(path.join(repo('beta'), 'app.txt'), 'the person edited it since\n');
    const end = await trees();
    const answer = await rollback('alpha', a.turnId);
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('CONFLICT');
    expect(answer.json.error.message).toContain(repo('beta'));
    expect(await trees()).toEqual(end);
  });
});
