// The console's setting of whether agents are told what the person undid: read and set with the
// console token (never the agent's), kept in agent-notices.json of the state dir.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHookTestServer, type HookTestServer } from '../../adapters/claude-code/test/server.js';

let t: HookTestServer;
let state: string;
const before = process.env.XDG_STATE_HOME;
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'turnback-notices-'));
  process.env.XDG_STATE_HOME = state;
  t = await startHookTestServer();
});
afterEach(async () => {
  await t.close();
  if (before === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = before;
  await rm(state, { recursive: true, force: true });
});

describe('/api/settings/agent-notices', () => {
  it('answers the setting, on by default, and the console turns it off and on', async () => {
    expect(await t.api('GET', '/api/settings/agent-notices')).toEqual({
      status: 200,
      json: { tellAgents: true, quietHosts: [] },
    });
    expect((await t.api('POST', '/api/settings/agent-notices', { tellAgents: false })).json).toEqual({
      tellAgents: false,
      quietHosts: [],
    });
    expect(JSON.parse(await readFile(join(state, 'turnback', 'agent-notices.json'), 'utf8'))).toMatchObject({
      tellAgents: false,
    });
    expect((await t.api('GET', '/api/settings/agent-notices')).json.tellAgents).toBe(false);
    expect((await t.api('POST', '/api/settings/agent-notices', { tellAgents: true })).json.tellAgents).toBe(true);
  });

  it('refuses a value that is not a boolean, and the agent token', async () => {
    expect((await t.api('POST', '/api/settings/agent-notices', { tellAgents: 'no' })).status).toBe(400);
    const asAgent = await fetch(`${t.server.origin}/api/settings/agent-notices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.server.agentToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tellAgents: false }),
    });
    expect(asAgent.status).toBeGreaterThanOrEqual(400);
    expect((await t.api('GET', '/api/settings/agent-notices')).json.tellAgents).toBe(true);
  });
});
