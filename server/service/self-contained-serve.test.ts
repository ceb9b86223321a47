// `serve --workspace X --data D` is self-contained (docs/api.md "The service"): two of them and a
// person's service side by side, all with session `s1`, each record their own changes, and the
// per-user state dir is left exactly as the person's service wrote it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli, type CliRun } from '../cli/test/spawn-cli.js';
import { readLiveService } from './service-file.js';
import { readStateToken } from './spawn-service.js';

let root: string;
let env: NodeJS.ProcessEnv;
const running: CliRun[] = [];

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-self-contained-'));
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state'), TURNBACK_PORT: '0' };
  await mkdir(env.HOME!);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((run) => run.stop('SIGTERM')));
  await rm(root, { recursive: true, force: true });
});

interface Instance {
  /** POSTs an agent call with the instance's agent token. */
  agent(route: string, body: Record<string, unknown>): Promise<any>;
  console(route: string, body?: unknown): Promise<any>;
}

const FIRST = /^turnback listening on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)$/;

async function serve(args: string[], agentToken: () => string | undefined): Promise<Instance> {
  const run = runCli(['serve', '--port', '0', ...args], env);
  running.push(run);
  const [, origin, consoleToken] = FIRST.exec(await run.firstLine)!;
  const call = async (method: string, route: string, token: string, body?: unknown) => {
    const response = await fetch(`${origin}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    agent: (route, body) => call('POST', `/api/agent/${route}`, agentToken()!, body),
    console: (route, body) => call(body === undefined ? 'GET' : 'POST', route, consoleToken, body),
  };
}

/** One turn of session `s1` in `workspace` that writes `file`: the paths its turn recorded. */
async function turnWriting(instance: Instance, workspace: string, file: string): Promise<string[]> {
  const body = { sessionId: 's1', cwd: workspace };
  const { turnId } = await instance.agent('input', {
    ...body,
    platform: 'claude-code',
    sessionType: 'chat',
    content: file,
  });
  expect(turnId).toEqual(expect.any(String));
  await instance.agent('fs/write', { ...body, uri: `workspace:/${file}`, content: file });
  await instance.agent('turn-end', body);
  const { files } = await instance.console(`/api/turns/${turnId}`);
  return files.map((change: { uri: string }) => change.uri);
}

/** The state dir's entries by name (the person's service rewrites its own files, as its index build ends, on its own). */
const snapshot = (dir: string): string[] => readdirSync(dir).sort();

/** The roots `workspaces.json` of `dir` names. */
const rootsIn = async (dir: string): Promise<string[]> =>
  (JSON.parse(await readFile(path.join(dir, 'workspaces.json'), 'utf8')) as { root: string }[]).map(
    (entry) => entry.root,
  );

it('two serve --data instances and the person service, all with session s1, record each their own changes', async () => {
  // The person's project is a folder in their home folder: one an agent's event may register by itself.
  const workspaces = [path.join(root, 'home', 'person'), path.join(root, 'one'), path.join(root, 'two')];
  for (const dir of workspaces) await mkdir(dir);
  const [personal, one, two] = workspaces;
  const userState = path.join(root, 'state', 'turnback');

  const person = await serve([], () => readStateToken('agentToken', env));
  expect(await turnWriting(person, personal, 'p.txt')).toEqual(['workspace:/p.txt']);
  const before = snapshot(userState);
  const sessionsBefore = await readFile(path.join(userState, 'sessions.json'), 'utf8');

  const dataOne = path.join(root, 'data-one');
  const dataTwo = path.join(root, 'data-two');
  const ownToken = (data: string) => () => readFileSync(path.join(data, 'agent-token'), 'utf8').trim();
  const first = await serve(['--workspace', one, '--data', dataOne], ownToken(dataOne));
  expect(await turnWriting(first, one, 'a.txt')).toEqual(['workspace:/a.txt']);
  const second = await serve(['--workspace', two, '--data', dataTwo], ownToken(dataTwo));
  expect(await turnWriting(second, two, 'b.txt')).toEqual(['workspace:/b.txt']);
  expect(await turnWriting(first, one, 'a2.txt')).toEqual(['workspace:/a2.txt']);

  // Each change in its own workspace, nowhere else.
  expect(readdirSync(one).sort()).toEqual(['a.txt', 'a2.txt']);
  expect(readdirSync(two)).toEqual(['b.txt']);
  expect(readdirSync(personal)).toEqual(['p.txt']);
  // Each instance's registry, sessions, tokens and service.json in its own data dir.
  for (const data of [dataOne, dataTwo]) {
    for (const file of ['workspaces.json', 'sessions.json', 'console-token', 'agent-token', 'service.json'])
      expect(existsSync(path.join(data, file))).toBe(true);
    expect(statSync(path.join(data, 'agent-token')).mode & 0o777).toBe(0o600);
  }
  // The person's state: untouched, and the person's service still records its own session.
  expect(snapshot(userState)).toEqual(before);
  expect(await rootsIn(userState)).toEqual([await realpath(personal)]);
  expect(await readFile(path.join(userState, 'sessions.json'), 'utf8')).toBe(sessionsBefore);
  expect(readLiveService(env)?.port).toBeGreaterThan(0);
  expect(await turnWriting(person, personal, 'p2.txt')).toEqual(['workspace:/p2.txt']);
}, 120_000);

it("keeps a serve --data instance's agent-notices setting in its own data dir, never the person's", async () => {
  const workspace = path.join(root, 'one');
  await mkdir(workspace);
  const data = path.join(root, 'data-one');
  const instance = await serve(['--workspace', workspace, '--data', data], () => undefined);
  expect(await instance.console('/api/settings/agent-notices', { tellAgents: false })).toEqual({
    tellAgents: false,
    quietHosts: [],
  });
  expect(JSON.parse(await readFile(path.join(data, 'agent-notices.json'), 'utf8'))).toMatchObject({
    tellAgents: false,
  });
  expect(existsSync(path.join(root, 'state', 'turnback', 'agent-notices.json'))).toBe(false);
}, 120_000);

it("keeps a serve --data instance's person budget in its own data dir, over its --person-budget, never the person's", async () => {
  const workspace = path.join(root, 'one');
  await mkdir(workspace);
  const data = path.join(root, 'data-one');
  const instance = await serve(['--workspace', workspace, '--data', data, '--person-budget', '64MiB'], () => undefined);
  expect(await instance.console('/api/settings/person-budget')).toMatchObject({
    bytes: 64 * 1024 * 1024,
    source: 'service',
    workspaces: 1,
  });
  expect(await instance.console('/api/settings/person-budget', { bytes: 1024 * 1024 * 1024 })).toMatchObject({
    bytes: 1024 * 1024 * 1024,
    source: 'setting',
  });
  expect(JSON.parse(await readFile(path.join(data, 'person-budget.json'), 'utf8'))).toEqual({ bytes: 1024 ** 3 });
  expect(statSync(path.join(data, 'person-budget.json')).mode & 0o777).toBe(0o600);
  expect(existsSync(path.join(root, 'state', 'turnback', 'person-budget.json'))).toBe(false);
}, 120_000);
