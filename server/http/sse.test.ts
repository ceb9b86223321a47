import { describe, expect, it } from 'vitest';
import { workspaceIdOf } from '../state-dir.js';
import { startServer } from './server.js';
import { createFakeEngine } from './test/fake-engine.js';
import { openSse } from './test/sse-reader.js';

const TOKEN = 'sse-console-token';

async function start(pingIntervalMs?: number) {
  const engine = createFakeEngine();
  const server = await startServer({
    engine,
    port: 0,
    token: TOKEN,
    agentToken: 'agent',
    pingIntervalMs,
    log: { info() {}, error() {} },
  });
  return { engine, server };
}

describe('GET /api/events', () => {
  it('streams engine events under their API names with one JSON data line', async () => {
    const { engine, server } = await start();
    // Every event names its workspace: here the server's one.
    const ID = workspaceIdOf(engine.workspace);
    const stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-store');
      await stream.waitFor('retry: 2000\n\n');
      engine.emit('turn-begun', { sessionId: 's1', turnId: 't1' });
      engine.emit('captured', { sessionId: 's1', turnId: 't1', uri: 'workspace:/a.txt' });
      engine.emit('turn-committed', { sessionId: 's1', turnId: 't1' });
      engine.emit('rollback-done', { sessionId: 's1', turnId: 't1', rollbackTurnId: 't2', ok: true });
      engine.emit('memory:messages-deleted', { sessionId: 's1', messageIds: ['m1'] });
      engine.emit('memory:messages-restored', { sessionId: 's1', messageIds: ['m1'] });
      engine.emit('session-deleted', { sessionId: 's1' });
      await stream.waitFor('event: session-deleted');
      expect(stream.text()).toBe(
        'retry: 2000\n\n' +
          `event: turn-begun\ndata: {"sessionId":"s1","turnId":"t1","workspaceId":"${ID}"}\n\n` +
          `event: captured\ndata: {"sessionId":"s1","turnId":"t1","uri":"workspace:/a.txt","workspaceId":"${ID}"}\n\n` +
          `event: turn-committed\ndata: {"sessionId":"s1","turnId":"t1","workspaceId":"${ID}"}\n\n` +
          `event: rollback-done\ndata: {"sessionId":"s1","turnId":"t1","rollbackTurnId":"t2","ok":true,"workspaceId":"${ID}"}\n\n` +
          `event: messages-deleted\ndata: {"sessionId":"s1","messageIds":["m1"],"workspaceId":"${ID}"}\n\n` +
          `event: messages-restored\ndata: {"sessionId":"s1","messageIds":["m1"],"workspaceId":"${ID}"}\n\n` +
          `event: session-deleted\ndata: {"sessionId":"s1","workspaceId":"${ID}"}\n\n`,
      );
    } finally {
      stream.close();
      await server.close();
    }
  });

  it('sends a ping comment on its interval', async () => {
    const { server } = await start(20);
    const stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    await stream.waitFor(': ping\n\n');
    stream.close();
    await server.close();
  });

  it('opens with ?token= (an EventSource cannot set headers), never with a cookie, and refuses without a token', async () => {
    const { server } = await start();
    const refused = await openSse(server.port, {});
    expect(refused.status).toBe(401);
    const byCookie = await openSse(server.port, { Cookie: `turnback_${server.port}=${TOKEN}; token=${TOKEN}` });
    expect(byCookie.status).toBe(401);
    const wrong = await openSse(server.port, {}, '/api/events?token=wrong');
    expect(wrong.status).toBe(401);
    const stream = await openSse(server.port, {}, `/api/events?token=${encodeURIComponent(TOKEN)}`);
    expect(stream.status).toBe(200);
    await stream.waitFor('retry: 2000');
    stream.close();
    await server.close();
  });

  it('ends cleanly when the server stops, and unsubscribes from the engine', async () => {
    const { engine, server } = await start();
    const stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    await stream.waitFor('retry: 2000');
    await server.close();
    await stream.ended;
    engine.emit('turn-begun', { sessionId: 's1', turnId: 't9' });
    expect(stream.text()).not.toContain('t9');
  });
});
