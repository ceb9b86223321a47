// The multi-workspace host with real engines on temp dirs: lazy opening, idle closing, the
// session → workspace rule across a restart, a workspace that cannot record, and a stuck one
// that holds up no other.
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { openEngine, type OpenEngineOptions } from '../engine/index.js';
import { MAX_OPEN_ENGINES, WorkspaceHost, type HostOptions } from './host.js';

let root: string;
let env: NodeJS.ProcessEnv;
let hosts: WorkspaceHost[];
const repos: Record<string, string> = {};

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-host-')));
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state') };
  for (const name of ['alpha', 'beta']) {
    repos[name] = path.join(root, 'home', name);
    await mkdir(path.join(repos[name], '.git'), { recursive: true });
    await mkdir(path.join(repos[name], 'src'));
  }
  hosts = [];
});
afterEach(async () => {
  for (const host of hosts) await host.close(1_000);
  await rm(root, { recursive: true, force: true });
});

function makeHost(overrides: Partial<HostOptions> = {}): WorkspaceHost {
  const host = new WorkspaceHost({
    env,
    engineOptions: { scopes: ['webui:*', 'claude-code:*'] },
    open: openEngine,
    ...overrides,
  });
  hosts.push(host);
  return host;
}

describe('the workspace host', () => {
  it('gives each event the workspace of its cwd (the git top level), opened on first use; without a cwd, its session latest', async () => {
    const host = makeHost();
    expect(host.list()).toEqual([]);
    const a = await host.agentEngine({ sessionKey: 'agent:s1', cwd: path.join(repos.alpha, 'src') });
    expect(a.engine.workspace).toBe(repos.alpha);
    // A later event from elsewhere goes where its files are; one without a cwd, where the session last was.
    const b = await host.agentEngine({ sessionKey: 'agent:s1', cwd: repos.beta });
    expect(b.workspaceId).not.toBe(a.workspaceId);
    expect((await host.agentEngine({ sessionKey: 'agent:s1' })).workspaceId).toBe(b.workspaceId);
    expect((await host.agentEngine({ sessionKey: 'agent:s1', cwd: repos.alpha })).workspaceId).toBe(a.workspaceId);
    expect(host.list().map((w) => [w.name, w.open, w.recording, w.isDefault])).toEqual([
      ['alpha', true, true, false],
      ['beta', true, true, false],
    ]);
    // The store is the per-folder serve's default data dir.
    expect(a.engine.dataDir).toBe(path.join(env.XDG_STATE_HOME!, 'turnback', a.workspaceId));

    // After a restart: the same registry, and s1 without a cwd still in alpha, where it last was.
    await host.close();
    const again = makeHost();
    expect(again.list().map((w) => [w.name, w.open])).toEqual([
      ['alpha', false],
      ['beta', false],
    ]);
    expect((await again.agentEngine({ sessionKey: 'agent:s1' })).workspaceId).toBe(a.workspaceId);
  });

  it('puts a session whose cwd is inside a registered workspace there, the deepest one, before its git top level', async () => {
    const host = makeHost();
    const inner = path.join(repos.alpha, 'src');
    host.setDefault(inner);
    expect((await host.agentEngine({ cwd: inner })).engine.workspace).toBe(inner);
    await mkdir(path.join(inner, 'deep'));
    expect((await host.agentEngine({ cwd: path.join(inner, 'deep') })).engine.workspace).toBe(inner);
    expect((await host.agentEngine({ cwd: repos.alpha })).engine.workspace).toBe(repos.alpha);
    expect(host.register(path.join(inner, 'deep')).root).toBe(inner);
  });

  it('asks for a workspace when several are registered and none is the default', async () => {
    const host = makeHost();
    await host.agentEngine({ cwd: repos.alpha });
    expect((await host.consoleEngine(undefined)).engine.workspace).toBe(repos.alpha);
    await host.agentEngine({ cwd: repos.beta });
    await expect(host.consoleEngine(undefined)).rejects.toMatchObject({ code: 'WORKSPACE_REQUIRED' });
    await expect(host.consoleEngine('nope-123')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    host.setDefault(repos.beta);
    expect((await host.consoleEngine(undefined)).engine.workspace).toBe(repos.beta);
  });

  it('closes an idle engine with no active turn, keeps one with an active turn, and reopens on use', async () => {
    let now = 1_000_000;
    const host = makeHost({ now: () => now, idleMs: 60_000 });
    const a = await host.agentEngine({ sessionKey: 'agent:a', cwd: repos.alpha });
    const b = await host.agentEngine({ sessionKey: 'agent:b', cwd: repos.beta });
    await b.engine.input({ sessionId: 'b', platform: 'claude-code', sessionType: 'cli', content: 'work' });
    a.release?.();
    b.release?.();
    now += 120_000;
    await host.closeIdle(60_000);
    const open = Object.fromEntries(host.list().map((w) => [w.name, w.open]));
    expect(open).toEqual({ alpha: false, beta: true });
    const reopened = await host.engine(a.workspaceId);
    expect(reopened).not.toBe(a.engine);
    expect(host.list().find((w) => w.name === 'alpha')?.open).toBe(true);
    // An open engine says whether its commands' scans follow a watcher (this host's engines have none); a closed one says nothing.
    expect(host.list().find((w) => w.name === 'alpha')?.watcher).toEqual({ state: 'none' });
    await host.closeIdle(0);
    expect(host.list().find((w) => w.name === 'alpha')?.watcher).toBeUndefined();
  });

  it("counts a closed workspace's sessions from its store after a restart, without opening its engine (issue 39 item 4)", async () => {
    const host = makeHost();
    const a = await host.agentEngine({ sessionKey: 'agent:a', cwd: repos.alpha });
    for (const sessionId of ['s1', 's2'])
      await a.engine.input({ sessionId, platform: 'claude-code', sessionType: 'cli', content: 'work' });
    const sessions = a.engine.listSessions().length;
    expect(sessions).toBeGreaterThan(0);
    a.release?.();
    await host.close();
    const again = makeHost();
    expect(again.list().map((w) => [w.name, w.open, w.sessions])).toEqual([['alpha', false, sessions]]);
  });

  it('reports a workspace whose store cannot be opened as not recording, with the reason', async () => {
    const host = makeHost();
    const id = host.register(repos.alpha).id;
    const store = path.join(env.XDG_STATE_HOME!, 'turnback', id, 'store');
    await mkdir(store, { recursive: true });
    await writeFile(path.join(store, 'turnback.db'), 'not a database\n'.repeat(500));
    await expect(host.engine(id)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_RECORDING' });
    const [workspace] = host.list();
    expect(workspace).toMatchObject({ recording: false, open: false });
    expect(workspace.reason).toMatch(/damaged/);
  });

  it("serves one workspace while another one's store is stuck opening", async () => {
    const stuck = new Promise<Engine>(() => {});
    const host = makeHost({
      open: (options: OpenEngineOptions) => (options.workspace === repos.alpha ? stuck : openEngine(options)),
    });
    const alpha = host.register(repos.alpha).id;
    void host.engine(alpha).catch(() => {});
    const started = Date.now();
    const b = await host.agentEngine({ cwd: repos.beta });
    expect(b.engine.workspace).toBe(repos.beta);
    // A wait on the stuck store never ends; the bound tells an answer from it, with room for a stalled machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(host.list().find((w) => w.id === alpha)?.open).toBe(false);
  });
});

describe('the workspace host at any number of cwds (issue 36 S6)', () => {
  const openFds = () => readdirSync('/proc/self/fd').length;

  it(
    'keeps open engines and file descriptors bounded across 200 distinct workspaces',
    { timeout: 240_000 },
    async () => {
      const host = makeHost();
      const fdsBefore = openFds();
      let mostOpen = 0;
      for (let n = 0; n < 200; n++) {
        const project = path.join(root, 'home', `p${n}`);
        await mkdir(path.join(project, '.git'), { recursive: true });
        await writeFile(path.join(project, 'a.txt'), `${n}\n`);
        // The person has 200 projects (the agent alone may bring only a few per hour).
        host.register(project);
        const lease = await host.agentEngine({ sessionKey: `claude-code:s${n}`, cwd: project });
        await lease.engine.input({ sessionId: `s${n}`, platform: 'claude-code', sessionType: 'cli', content: 'go' });
        await lease.engine.turnEnd({ sessionId: `s${n}` });
        lease.release?.();
        mostOpen = Math.max(mostOpen, host.list().filter((w) => w.open).length);
      }
      expect(host.list()).toHaveLength(200);
      expect(mostOpen).toBeLessThanOrEqual(MAX_OPEN_ENGINES);
      // Each open engine holds a few fds (database, WAL, shared memory); 200 of them held over 600.
      expect(openFds() - fdsBefore).toBeLessThan(MAX_OPEN_ENGINES * 8);
      // A closed one opens again on use, with what it recorded.
      const first = await host.agentEngine({ sessionKey: 'claude-code:s0', cwd: path.join(root, 'home', 'p0') });
      expect(first.engine.listSessions().map((s) => s.sessionId)).toEqual(['s0']);
      first.release?.();
    },
  );

  it('never closes an engine a request holds, one with an active turn, or the default one, to make room', async () => {
    const host = makeHost({ maxOpenEngines: 2 });
    const project = async (name: string) => {
      const dir = path.join(root, 'home', name);
      await mkdir(path.join(dir, '.git'), { recursive: true });
      return dir;
    };
    host.setDefault(await project('default'));
    const held = await host.agentEngine({ sessionKey: 'agent:held', cwd: await project('held') });
    const busy = await host.agentEngine({ sessionKey: 'agent:busy', cwd: await project('busy') });
    await busy.engine.input({ sessionId: 'busy', platform: 'claude-code', sessionType: 'cli', content: 'x' });
    busy.release?.();
    await host.consoleEngine(undefined).then((lease) => lease.release?.());
    for (const name of ['n1', 'n2', 'n3']) {
      const lease = await host.agentEngine({ sessionKey: `agent:${name}`, cwd: await project(name) });
      lease.release?.();
    }
    const open = Object.fromEntries(host.list().map((w) => [w.name, w.open]));
    expect(open).toMatchObject({ default: true, held: true, busy: true, n1: false, n2: false, n3: true });
    await held.engine.input({ sessionId: 'held', platform: 'claude-code', sessionType: 'cli', content: 'still open' });
    held.release?.();
  });
});
