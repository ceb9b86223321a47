// Issue 36 S2 and S6 through the service's HTTP face: an agent's event registers only a project
// (a git top level, or a plain folder in the home folder), the fs routes act only inside a
// registered workspace, dot-folders of the home folder and system folders need the person's
// `allow`, agent registrations are capped per window, and a workspace can be forgotten.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import { openEngine } from '../engine/index.js';
import { MAX_OPEN_ENGINES, WorkspaceHost, type HostOptions } from './host.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
let root: string;
let home: string;
let env: NodeJS.ProcessEnv;
let host: WorkspaceHost;
let server: RunningServer;

async function start(options: Partial<HostOptions> = {}): Promise<void> {
  host = new WorkspaceHost({
    env,
    engineOptions: { scopes: ['webui:*', 'claude-code:*'] },
    open: openEngine,
    ...options,
  });
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
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-ws-rules-')));
  home = path.join(root, 'home');
  env = { HOME: home, XDG_STATE_HOME: path.join(root, 'state') };
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA person\n');
  await mkdir(path.join(home, '.config', 'systemd', 'user'), { recursive: true });
});
afterEach(async () => {
  await server?.close();
  await host?.close(1_000);
  await rm(root, { recursive: true, force: true });
});

const get = (route: string) => send(server.port, { path: route, token: TOKEN });
const post = (route: string, body: unknown, token = TOKEN) =>
  send(server.port, { method: 'POST', path: route, token, body });
const del = (route: string) => send(server.port, { method: 'DELETE', path: route, token: TOKEN });
const hook = (event: unknown) => post('/api/agent/hook/claude-code', event, AGENT);
const session = (n: number) => `${String(n).padStart(8, '0')}-1111-4111-8111-111111111111`;
const roots = async () => (await get('/api/workspaces')).json.workspaces.map((w: { root: string }) => w.root);

describe('which folders an agent may bring (S2)', () => {
  it('refuses an fs write whose cwd is ~/.ssh, and writes nothing there', async () => {
    await start();
    const keys = path.join(home, '.ssh', 'authorized_keys');
    for (const cwd of [path.join(home, '.ssh'), path.join(home, '.config', 'systemd', 'user')]) {
      const answer = await post(
        '/api/agent/fs/write',
        { sessionId: 'probe', cwd, uri: 'workspace:/authorized_keys', content: 'ssh-ed25519 AAAA attacker\n' },
        AGENT,
      );
      expect(answer.status, cwd).toBe(404);
      expect(answer.json.error.code).toBe('WORKSPACE_NOT_FOUND');
    }
    expect(await readdir(path.join(home, '.ssh'))).toEqual(['authorized_keys']);
    expect(existsSync(path.join(home, '.config', 'systemd', 'user', 'authorized_keys'))).toBe(false);
    expect(await roots()).toEqual([]);
    expect(existsSync(keys)).toBe(true);
  });

  it('writes through fs only inside a registered workspace: a project folder the agent never named is not registered by it', async () => {
    await start();
    const project = path.join(home, 'project');
    await mkdir(path.join(project, '.git'), { recursive: true });
    const answer = await post(
      '/api/agent/fs/write',
      { sessionId: 'w1', cwd: project, uri: 'workspace:/a.txt', content: 'x' },
      AGENT,
    );
    expect(answer.json.error.code).toBe('WORKSPACE_NOT_FOUND');
    expect(existsSync(path.join(project, 'a.txt'))).toBe(false);
    // Once its hook event (or the person) registered it, the same write lands.
    expect((await hook(p.userPromptSubmit({ cwd: project, sessionId: session(1) }, 'go'))).json.outcome).toBe(
      'forwarded',
    );
    const again = await post(
      '/api/agent/fs/write',
      { sessionId: 'w1', cwd: project, uri: 'workspace:/a.txt', content: 'x' },
      AGENT,
    );
    expect(again.json).toEqual({ ok: true });
    expect(existsSync(path.join(project, 'a.txt'))).toBe(true);
  });

  it('refuses hook events from a data folder outside the home folder and from ~/.config, each told with turnback init; git repos outside it are projects', async () => {
    await start();
    // Like /var/lib: outside the home folder, no git top level above it.
    const dataFolder = path.join(root, 'var-lib', 'postgresql');
    await mkdir(dataFolder, { recursive: true });
    const first = await hook(p.userPromptSubmit({ cwd: dataFolder, sessionId: session(1) }, 'hi'));
    expect(first.json).toMatchObject({ ok: true, outcome: 'not-recorded' });
    expect(first.json.systemMessage).toMatch(
      /^turnback is not recording this session: .*neither a git repository nor a folder in your home folder/,
    );
    expect(first.json.systemMessage).toContain(`turnback init claude-code --workspace ${dataFolder}`);
    const config = await hook(p.userPromptSubmit({ cwd: path.join(home, '.config'), sessionId: session(2) }, 'hi'));
    expect(config.json.outcome).toBe('not-recorded');
    expect(config.json.systemMessage).toMatch(/settings folder of your home folder/);
    const deep = await hook(
      p.userPromptSubmit({ cwd: path.join(home, '.config', 'systemd', 'user'), sessionId: session(3) }, 'hi'),
    );
    expect(deep.json.outcome).toBe('not-recorded');
    expect(await roots()).toEqual([]);

    // A git repository outside the home folder (/srv/app, /workspaces/app) is a project.
    const srv = path.join(root, 'srv', 'app');
    await mkdir(path.join(srv, '.git'), { recursive: true });
    await mkdir(path.join(srv, 'src'));
    const accepted = await hook(p.userPromptSubmit({ cwd: path.join(srv, 'src'), sessionId: session(4) }, 'hi'));
    expect(accepted.json.outcome).toBe('forwarded');
    // So is a plain folder inside the home folder.
    const notes = path.join(home, 'notes');
    await mkdir(notes);
    expect((await hook(p.userPromptSubmit({ cwd: notes, sessionId: session(5) }, 'hi'))).json.outcome).toBe(
      'forwarded',
    );
    expect(await roots()).toEqual([srv, notes]);
  });

  it('takes a data folder the person registers, and a dot-folder only with allow: true', async () => {
    await start();
    const dataFolder = path.join(root, 'var-lib', 'app');
    await mkdir(dataFolder, { recursive: true });
    expect((await post('/api/workspaces', { path: dataFolder })).json.workspace.root).toBe(dataFolder);
    expect((await hook(p.userPromptSubmit({ cwd: dataFolder, sessionId: session(1) }, 'hi'))).json.outcome).toBe(
      'forwarded',
    );
    const ssh = await post('/api/workspaces', { path: path.join(home, '.ssh') });
    expect(ssh.status).toBe(400);
    expect(ssh.json.error.code).toBe('WORKSPACE_REFUSED');
    expect(ssh.json.error.message).toMatch(/settings folder of your home folder.*--allow/);
    const allowed = await post('/api/workspaces', { path: path.join(home, '.config', 'systemd'), allow: true });
    expect(allowed.json.workspace.root).toBe(path.join(home, '.config', 'systemd'));
    // `/` and the home folder itself stay refused whatever `allow` says.
    for (const never of ['/', home, '/proc']) {
      expect((await post('/api/workspaces', { path: never, allow: true })).json.error.code, never).toBe(
        'WORKSPACE_REFUSED',
      );
    }
  });
});

describe('bounded registration, and forgetting (S6)', () => {
  it('caps the workspaces agent events register per window, told with WORKSPACE_LIMIT and turnback init', async () => {
    await start({ agentRegistrations: { max: 3, windowMs: 60 * 60_000 } });
    const answers = [];
    for (let n = 0; n < 5; n++) {
      const cwd = path.join(home, `project-${n}`);
      await mkdir(cwd);
      answers.push((await hook(p.userPromptSubmit({ cwd, sessionId: session(n) }, 'hi'))).json);
    }
    expect(answers.map((answer) => answer.outcome)).toEqual([
      'forwarded',
      'forwarded',
      'forwarded',
      'not-recorded',
      'not-recorded',
    ]);
    expect(answers[3].systemMessage).toMatch(/registered 3 workspaces within 60 min/);
    expect(answers[3].systemMessage).toContain(`turnback init claude-code --workspace ${path.join(home, 'project-3')}`);
    expect(await roots()).toHaveLength(3);
    // The agent API is told with the code; the person's registration is not capped.
    const api = await post(
      '/api/agent/input',
      { sessionId: 'a1', platform: 'webui', sessionType: 'chat', content: 'x', cwd: path.join(home, 'project-4') },
      AGENT,
    );
    expect(api.status).toBe(429);
    expect(api.json.error.code).toBe('WORKSPACE_LIMIT');
    expect((await post('/api/workspaces', { path: path.join(home, 'project-4') })).status).toBe(200);
  });

  it(
    'keeps workspaces, open engines and fds bounded when hook events come from 200 distinct projects',
    { timeout: 240_000 },
    async () => {
      await start();
      const fds = () => readdirSync('/proc/self/fd').length;
      const fdsBefore = fds();
      const outcomes = new Map<string, number>();
      let mostOpen = 0;
      for (let n = 0; n < 200; n++) {
        const cwd = path.join(home, `repo-${n}`);
        await mkdir(path.join(cwd, '.git'), { recursive: true });
        const c = { cwd, sessionId: session(n) };
        const answer = (await hook(p.userPromptSubmit(c, 'hi'))).json;
        await hook(p.stop(c));
        const told =
          answer.outcome === 'not-recorded' ? /registered 20 workspaces within 60 min/.test(answer.ignored) : true;
        expect(told, answer.ignored).toBe(true);
        outcomes.set(answer.outcome, (outcomes.get(answer.outcome) ?? 0) + 1);
        if (n % 10 === 9)
          mostOpen = Math.max(
            mostOpen,
            (await get('/api/workspaces')).json.workspaces.filter((w: { open: boolean }) => w.open).length,
          );
      }
      // The default cap: 20 registrations by agent events per hour, the rest told how to record them.
      expect(Object.fromEntries(outcomes)).toEqual({ forwarded: 20, 'not-recorded': 180 });
      expect(await roots()).toHaveLength(20);
      expect(mostOpen).toBeLessThanOrEqual(MAX_OPEN_ENGINES);
      expect(fds() - fdsBefore).toBeLessThan(MAX_OPEN_ENGINES * 8);
    },
  );

  it('forgets a workspace: engine closed, out of the list and the session map, store kept unless deleteStore', async () => {
    await start();
    const alpha = path.join(home, 'alpha');
    const beta = path.join(home, 'beta');
    for (const dir of [alpha, beta]) await mkdir(path.join(dir, '.git'), { recursive: true });
    const c = { cwd: alpha, sessionId: session(1) };
    await hook(p.userPromptSubmit(c, 'work'));
    const [workspace] = (await get('/api/workspaces')).json.workspaces;
    expect(workspace.open).toBe(true);
    // An active turn: refused.
    const busy = await del(`/api/workspaces/${workspace.id}`);
    expect(busy.status).toBe(409);
    expect(busy.json.error.code).toBe('TURN_ACTIVE');
    await hook(p.stop(c));
    const forgotten = await del(`/api/workspaces/${workspace.id}`);
    expect(forgotten.status).toBe(200);
    expect(forgotten.json).toMatchObject({
      ok: true,
      storeDeleted: false,
      workspace: { id: workspace.id, root: alpha },
    });
    expect(await roots()).toEqual([]);
    const sessionsFile = path.join(env.XDG_STATE_HOME!, 'turnback', 'sessions.json');
    expect(JSON.parse(await readFile(sessionsFile, 'utf8'))).toEqual({});
    const store = path.join(env.XDG_STATE_HOME!, 'turnback', workspace.id);
    expect(existsSync(path.join(store, 'store', 'turnback.db'))).toBe(true);
    expect((await del(`/api/workspaces/${workspace.id}`)).json.error.code).toBe('WORKSPACE_NOT_FOUND');
    expect((await get(`/api/workspaces/${workspace.id}/sessions`)).status).toBe(404);
    // The session's next event, now from beta, is placed again by its cwd.
    await hook(p.userPromptSubmit({ ...c, cwd: beta }, 'more'));
    const [again] = (await get('/api/workspaces')).json.workspaces;
    expect(again.root).toBe(beta);
    await hook(p.stop({ ...c, cwd: beta }));
    expect((await del(`/api/workspaces/${again.id}?deleteStore=true`)).json.storeDeleted).toBe(true);
    expect(existsSync(path.join(env.XDG_STATE_HOME!, 'turnback', again.id))).toBe(false);
    // The agent token cannot forget.
    const id = (await post('/api/workspaces', { path: alpha })).json.workspace.id;
    const asAgent = await send(server.port, { method: 'DELETE', path: `/api/workspaces/${id}`, token: AGENT });
    expect(asAgent.status).toBe(401);
    expect(await roots()).toEqual([alpha]);
  });
});
