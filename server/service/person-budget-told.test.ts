// The person's budget as the service serves it (docs/api.md "Store budget"): set and read with the
// console token only at /api/settings/person-budget, and each pruning told once through the next
// forwarded hook answer of any session, whichever workspace it is in.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import { placeOfHookEvent } from '../adapters/hosts.js';
import { openEngine } from '../engine/index.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import { WorkspaceHost } from './host.js';
import { PersonBudgetKeeper } from './person-budget.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
const MIB = 1024 * 1024;
const ROUTE = '/api/settings/person-budget';
let root: string;
let host: WorkspaceHost;
let keeper: PersonBudgetKeeper;
let stopKeeper: () => void;
let server: RunningServer;
const repo = (name: 'alpha' | 'beta') => path.join(root, 'home', name);
const stateDir = () => path.join(root, 'state');

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-person-told-')));
  for (const name of ['alpha', 'beta'] as const) await mkdir(path.join(repo(name), '.git'), { recursive: true });
  host = new WorkspaceHost({
    env: { HOME: path.join(root, 'home') },
    stateDir: stateDir(),
    engineOptions: { scopes: ['claude-code:*'] },
    open: openEngine,
  });
  keeper = new PersonBudgetKeeper({ source: host, stateDir: stateDir(), log: () => undefined });
  stopKeeper = keeper.start();
  server = await startServer({
    source: host,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    routes: claudeCodeRoutes({ tellsAgents: () => false, personBudgetNews: () => keeper.takeNews() }),
    readHookPlace: placeOfHookEvent,
    personBudget: keeper,
    log: { error() {} },
  });
});
afterEach(async () => {
  stopKeeper();
  await keeper.settled();
  await server?.close();
  await host?.close(5_000);
  await rm(root, { recursive: true, force: true });
});

/** A hook event as the agent token sends it; answers its systemMessage, if any. */
async function hook(event: unknown): Promise<string | undefined> {
  const answer = await send(server.port, {
    method: 'POST',
    path: '/api/agent/hook/claude-code',
    token: AGENT,
    body: event,
  });
  expect(answer.json.outcome, JSON.stringify(answer.json)).toBe('forwarded');
  return answer.json.systemMessage as string | undefined;
}

/** One session's turn in `name`: a Write of 2 MiB of new random bytes to its own file. Answers what its hooks told. */
async function session(name: 'alpha' | 'beta', sessionId: string): Promise<(string | undefined)[]> {
  const c = { cwd: repo(name), sessionId };
  const file = path.join(repo(name), `${sessionId}.bin`);
  const told = [await hook(p.userPromptSubmit(c, `write ${sessionId}`)), await hook(p.write(c, file, 'x'))];
  await writeFile(file, randomBytes(2 * MIB));
  told.push(await hook(p.stop(c)));
  await keeper.settled();
  return told;
}

describe('/api/settings/person-budget and the hook that tells', () => {
  it('the console token reads and sets it (kept 0600 in the state dir); the agent token and a bad body are refused', async () => {
    expect(await send(server.port, { path: ROUTE, token: TOKEN })).toMatchObject({
      status: 200,
      json: { bytes: null, source: 'none', used: 0, workspaces: 0, prunedForPersonBudget: 0 },
    });
    const set = await send(server.port, { method: 'POST', path: ROUTE, token: TOKEN, body: { bytes: 50 * MIB } });
    expect(set).toMatchObject({ status: 200, json: { bytes: 50 * MIB, source: 'setting' } });
    const file = path.join(stateDir(), 'person-budget.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ bytes: 50 * MIB });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    for (const body of [{ bytes: 'lots' }, { bytes: -1 }, { bytes: 1.5 }, {}, []]) {
      const bad = await send(server.port, { method: 'POST', path: ROUTE, token: TOKEN, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.error.code).toBe('BAD_REQUEST');
    }
    for (const method of ['GET', 'POST'] as const) {
      const asAgent = await send(server.port, { method, path: ROUTE, token: AGENT, body: { bytes: null } });
      expect(asAgent.status).toBe(401);
    }
    expect((await send(server.port, { path: ROUTE, token: TOKEN })).json.bytes).toBe(50 * MIB);
    const cleared = await send(server.port, { method: 'POST', path: ROUTE, token: TOKEN, body: { bytes: null } });
    expect(cleared.json).toMatchObject({ bytes: null, source: 'none' });
  });

  it('tells a pruning once, through the next forwarded answer of any session in any workspace', async () => {
    await send(server.port, { method: 'POST', path: ROUTE, token: TOKEN, body: { bytes: 7 * MIB } });
    // 2 MiB each: the fourth session takes the stores to 8 MiB, over 7: beta's b1 (the oldest) goes.
    expect((await session('beta', 'b1')).filter(Boolean)).toEqual([]);
    expect((await session('beta', 'b2')).filter(Boolean)).toEqual([]);
    expect((await session('alpha', 'a1')).filter(Boolean)).toEqual([]);
    const a2 = await session('alpha', 'a2');
    // The stop that went over answered before the pruning ran in the background.
    expect(a2.filter(Boolean)).toEqual([]);
    const status = await send(server.port, { path: ROUTE, token: TOKEN });
    expect(status.json).toMatchObject({ bytes: 7 * MIB, source: 'setting', workspaces: 2, prunedForPersonBudget: 1 });
    expect(status.json.used).toBeLessThanOrEqual(7 * MIB);
    // The next hook of another session, in alpha, carries it; the one after does not.
    const c = { cwd: repo('alpha'), sessionId: 'a3' };
    expect(await hook(p.userPromptSubmit(c, 'next'))).toBe(
      'turnback pruned the oldest session (of beta) to keep your stores within your 7.0 MiB budget (turnback budget --person changes it)',
    );
    expect(await hook(p.stop(c))).toBeUndefined();
    // The workspaces tell it apart from their own budget's prunes.
    const { json } = await send(server.port, { path: '/api/workspaces', token: TOKEN });
    const beta = json.workspaces.find((w: { name: string }) => w.name === 'beta');
    expect(beta.budget).toMatchObject({ prunedForPersonBudget: 1, prunedForBudget: 0 });
  });
});
