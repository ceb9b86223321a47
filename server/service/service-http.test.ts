// The service's HTTP face in-process: the workspaces routes, the /api/workspaces/:id/… prefix,
// unprefixed routes, events naming their workspace, agent routes choosing the session's
// workspace, hook events that cannot be recorded, and /api/health beside a stuck store.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import type { Engine } from '../engine/api.js';
import { openEngine, type OpenEngineOptions } from '../engine/index.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import { openSse } from '../http/test/sse-reader.js';
import { treeAsText } from '../testkit/tree.js';
import { WorkspaceHost } from './host.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
let root: string;
let env: NodeJS.ProcessEnv;
let host: WorkspaceHost;
let server: RunningServer;
const repo = (name: string) => path.join(root, 'home', name);

async function start(open: (options: OpenEngineOptions) => Promise<Engine> = openEngine): Promise<void> {
  host = new WorkspaceHost({ env, engineOptions: { scopes: ['webui:*', 'claude-code:*'] }, open });
  server = await startServer({
    source: host,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    routes: claudeCodeRoutes(),
    log: { error() {} },
  });
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-service-http-')));
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state') };
  for (const name of ['alpha', 'beta']) {
    await mkdir(path.join(repo(name), '.git'), { recursive: true });
    await writeFile(path.join(repo(name), 'app.txt'), `${name} v1\n`);
  }
});
afterEach(async () => {
  await server?.close();
  await host?.close(1_000);
  await rm(root, { recursive: true, force: true });
});

const get = (route: string) => send(server.port, { path: route, token: TOKEN });
const post = (route: string, body: unknown, token = TOKEN) =>
  send(server.port, { method: 'POST', path: route, token, body });
const hook = (event: unknown) => post('/api/agent/hook/claude-code', event, AGENT);

describe('the service over HTTP', () => {
  it('registers workspaces by path (git top level) and refuses the home folder, / and system folders', async () => {
    await start();
    expect((await get('/api/workspaces')).json).toEqual({ workspaces: [] });
    await mkdir(path.join(repo('alpha'), 'src'));
    const added = await post('/api/workspaces', { path: path.join(repo('alpha'), 'src') });
    expect(added.status).toBe(200);
    expect(added.json.workspace).toMatchObject({
      root: repo('alpha'),
      name: 'alpha',
      recording: true,
      open: false,
      sessions: 0,
      isDefault: false,
    });
    expect(added.json.workspace.id).toMatch(/^alpha-[0-9a-f]{12}$/);
    for (const refused of [env.HOME!, '/', '/usr/lib']) {
      const answer = await post('/api/workspaces', { path: refused });
      expect(answer.status, refused).toBe(400);
      expect(answer.json.error.code).toBe('WORKSPACE_REFUSED');
    }
    expect((await post('/api/workspaces', { path: 'relative' })).status).toBe(400);
    // Unprefixed routes address the only workspace.
    expect((await get('/api/sessions')).json).toEqual({ sessions: [] });
  });

  it("records two workspaces' sessions from their hook events, each rolled back exactly through its prefix", async () => {
    await start();
    const before = { alpha: await treeAsText(repo('alpha')), beta: await treeAsText(repo('beta')) };
    const sessions = { alpha: '11111111-1111-4111-8111-111111111111', beta: '22222222-2222-4222-8222-222222222222' };
    for (const name of ['alpha', 'beta'] as const) {
      const c = { cwd: repo(name), sessionId: sessions[name] };
      expect((await hook(p.userPromptSubmit(c, `change ${name}`))).json.outcome).toBe('forwarded');
      const pre = p.bash(c, 'echo changed > app.txt');
      expect((await hook(pre)).json.outcome).toBe('forwarded');
      await writeFile(path.join(repo(name), 'app.txt'), `${name} v2\n`);
      expect((await hook(p.postToolUse(pre))).json.outcome).toBe('forwarded');
      expect((await hook(p.stop(c))).json.outcome).toBe('forwarded');
    }
    const { workspaces } = (await get('/api/workspaces')).json;
    expect(workspaces.map((w: { name: string; sessions: number }) => [w.name, w.sessions])).toEqual([
      ['alpha', 1],
      ['beta', 1],
    ]);
    expect((await get('/api/sessions')).json.error.code).toBe('WORKSPACE_REQUIRED');
    for (const workspace of workspaces) {
      const prefix = `/api/workspaces/${workspace.id}`;
      const listed = (await get(`${prefix}/sessions`)).json.sessions;
      expect(listed.map((s: { sessionId: string }) => s.sessionId)).toEqual([
        sessions[workspace.name as 'alpha' | 'beta'],
      ]);
      const [turn] = (await get(`${prefix}/sessions/${listed[0].sessionId}/turns`)).json.turns;
      expect((await post(`${prefix}/turns/${turn.turnId}/rollback`, {})).json).toMatchObject({ ok: true, errors: [] });
    }
    expect(await treeAsText(repo('alpha'))).toEqual(before.alpha);
    expect(await treeAsText(repo('beta'))).toEqual(before.beta);
    expect((await get('/api/workspaces/nope-000000000000/sessions')).json.error.code).toBe('WORKSPACE_NOT_FOUND');
    // Agent routes keep their unprefixed URIs.
    expect((await post(`/api/workspaces/${workspaces[0].id}/agent/input`, {})).status).toBe(404);
  });

  it("streams every workspace's events with its workspaceId, or one workspace's under its prefix", async () => {
    await start();
    const alpha = (await post('/api/workspaces', { path: repo('alpha') })).json.workspace.id;
    const all = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    const onlyBeta = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` }, '/api/workspaces/beta-x/events');
    try {
      expect(onlyBeta.status).toBe(404);
      await post(
        '/api/agent/input',
        { sessionId: 'web-1', platform: 'webui', sessionType: 'chat', content: 'hi', cwd: repo('alpha') },
        AGENT,
      );
      await all.waitFor('event: turn-begun');
      expect(all.text()).toContain(`"workspaceId":"${alpha}"`);
    } finally {
      all.close();
      onlyBeta.close();
    }
  });

  it('answers a hook event it cannot record with not-recorded, and the systemMessage once per session and reason', async () => {
    await start();
    const c = { cwd: env.HOME! };
    const first = await hook(p.userPromptSubmit(c, 'hi'));
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ ok: true, outcome: 'not-recorded' });
    expect(first.json.ignored).toMatch(/home folder .* cannot be a workspace/);
    expect(first.json.systemMessage).toMatch(/^turnback is not recording this session: the home folder/);
    const second = await hook(p.bash(c, 'ls'));
    expect(second.json.outcome).toBe('not-recorded');
    expect(second.json.systemMessage).toBeUndefined();
    // Another session hears it too.
    expect(
      (await hook(p.userPromptSubmit({ ...c, sessionId: '33333333-3333-4333-8333-333333333333' }, 'x'))).json
        .systemMessage,
    ).toBeDefined();
  });

  it('reports a damaged store as not recording, in the workspace list and to the hook', async () => {
    await start();
    const id = (await post('/api/workspaces', { path: repo('alpha') })).json.workspace.id;
    const store = path.join(env.XDG_STATE_HOME!, 'turnback', id, 'store');
    await mkdir(store, { recursive: true });
    await writeFile(path.join(store, 'turnback.db'), 'not a database\n'.repeat(500));
    const answer = await hook(p.userPromptSubmit({ cwd: repo('alpha') }, 'hi'));
    expect(answer.json.outcome).toBe('not-recorded');
    expect(answer.json.systemMessage).toMatch(/damaged/);
    const [workspace] = (await get('/api/workspaces')).json.workspaces;
    expect(workspace).toMatchObject({ recording: false });
    expect(workspace.reason).toMatch(/damaged/);
    expect((await get(`/api/workspaces/${id}/sessions`)).status).toBe(503);
  });

  it('answers /api/health and another workspace while one store is stuck', async () => {
    await start((options) =>
      options.workspace === repo('alpha') ? new Promise<Engine>(() => {}) : openEngine(options),
    );
    const alpha = (await post('/api/workspaces', { path: repo('alpha') })).json.workspace.id;
    const beta = (await post('/api/workspaces', { path: repo('beta') })).json.workspace.id;
    const stuck = get(`/api/workspaces/${alpha}/sessions`);
    const started = Date.now();
    expect((await send(server.port, { path: '/api/health', token: AGENT })).json).toMatchObject({ ok: true });
    expect((await get(`/api/workspaces/${beta}/sessions`)).json).toEqual({ sessions: [] });
    expect((await get('/api/workspaces')).status).toBe(200);
    // A wait on the stuck store never ends; the bound tells an answer from it, with room for a stalled machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    void stuck.catch(() => {});
  });
});

it('reads a session map that survives in sessions.json', async () => {
  await start();
  await hook(p.userPromptSubmit({ cwd: repo('beta') }, 'hi'));
  const map = JSON.parse(await readFile(path.join(env.XDG_STATE_HOME!, 'turnback', 'sessions.json'), 'utf8'));
  expect(Object.keys(map)).toEqual([`claude-code:${p.SESSION_ID}`]);
});
