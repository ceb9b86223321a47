// The routes a server's caller adds (the CLI adds the agent adapters'): served behind the same
// checks as the table's own, and never in place of one of them.
import { describe, expect, it } from 'vitest';
import { startServer } from './server.js';
import { send } from './test/client.js';
import { createFakeEngine } from './test/fake-engine.js';
import type { Route } from './types.js';

const echo: Route = { method: 'POST', pattern: '/api/agent/echo', handler: ({ body }) => ({ body: { echoed: body } }) };
const quiet = { info() {}, error() {} };

describe('extra routes', () => {
  it('serves a route its caller added, behind the agent token like every agent route', async () => {
    const server = await startServer({
      engine: createFakeEngine(),
      port: 0,
      agentToken: 'agent',
      routes: [echo],
      log: quiet,
    });
    try {
      const answer = await send(server.port, {
        method: 'POST',
        path: '/api/agent/echo',
        token: 'agent',
        body: { a: 1 },
      });
      expect(answer).toMatchObject({ status: 200, json: { echoed: { a: 1 } } });
      expect(
        (await send(server.port, { method: 'POST', path: '/api/agent/echo', token: 'wrong', body: {} })).status,
      ).toBe(401);
      expect((await send(server.port, { method: 'GET', path: '/api/agent/echo', token: 'agent' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it('refuses a route that would shadow one of the table', async () => {
    const shadow: Route = { ...echo, pattern: '/api/agent/input' };
    await expect(startServer({ engine: createFakeEngine(), port: 0, routes: [shadow], log: quiet })).rejects.toThrow(
      /already served/,
    );
  });
});
