// Retention through the server: sessions the agent token opens never prune a session the agent
// token did not open (docs/api.md "Retention"), however many the agent opens.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { openEngine } from '../engine/index.js';
import { startServer, type RunningServer } from './server.js';
import { send } from './test/client.js';

const TOKEN = 'console-token';
const AGENT = 'agent-token';
const HOUR = 3_600_000;

let root: string;
let engine: Engine;
let server: RunningServer;
const clock = { t: Date.UTC(2026, 0, 1), now: () => clock.t };

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-retention-'));
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  engine = await openEngine({
    workspace,
    dataDir: path.join(root, 'data'),
    scopes: ['webui:*'],
    keepSessions: 3,
    now: clock.now,
  });
  server = await startServer({
    engine,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    distDir: path.join(root, 'no-dist'),
    log: { info() {}, error() {} },
  });
});

afterEach(async () => {
  await server.close();
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

async function turnIn(sessionId: string, token: string): Promise<void> {
  const post = (route: string, body: unknown) =>
    send(server.port, { method: 'POST', path: `/api/agent/${route}`, token, body });
  expect(
    (await post('input', { sessionId, platform: 'webui', sessionType: 'chat', content: `work in ${sessionId}` }))
      .status,
  ).toBe(200);
  expect((await post('turn-end', { sessionId })).status).toBe(200);
}

const sessionIds = async () =>
  ((await send(server.port, { path: '/api/sessions', token: TOKEN })).json.sessions as { sessionId: string }[])
    .map((s) => s.sessionId)
    .sort();

describe('--keep-sessions and the agent token', () => {
  it("a person's session idle 25 h outlives three new sessions the agent token opens (keep-sessions 3)", async () => {
    await turnIn('person-1', TOKEN);
    clock.t += 25 * HOUR;
    for (const id of ['agent-1', 'agent-2', 'agent-3']) await turnIn(id, AGENT);
    expect(await sessionIds()).toEqual(['agent-1', 'agent-2', 'agent-3', 'person-1']);
    const sessions = (await send(server.port, { path: '/api/sessions', token: TOKEN })).json.sessions as {
      sessionId: string;
      origin: string;
    }[];
    expect(Object.fromEntries(sessions.map((s) => [s.sessionId, s.origin]))).toEqual({
      'person-1': 'person',
      'agent-1': 'agent',
      'agent-2': 'agent',
      'agent-3': 'agent',
    });
  });

  it("the agent's own sessions are still held to keep-sessions among themselves", async () => {
    await turnIn('person-1', TOKEN);
    for (const id of ['agent-1', 'agent-2', 'agent-3', 'agent-4']) {
      await turnIn(id, AGENT);
      clock.t += 25 * HOUR;
    }
    await turnIn('agent-5', AGENT);
    expect(await sessionIds()).toEqual(['agent-3', 'agent-4', 'agent-5', 'person-1']);
  });
});
