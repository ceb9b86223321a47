// The console's handshake (docs/api.md "Security"): the service proves it holds the console
// token, and the key a tab then sends opens this run on this port only.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HelloResponse } from '../protocol.js';
import { startServer, type RunningServer } from './server.js';
import { createFakeEngine } from './test/fake-engine.js';
import { send } from './test/client.js';
import { AGENT_TOKEN, CONSOLE_TOKEN, startFakeServer, type Harness } from './test/harness.js';

const mac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('base64url');
const NONCE = 'a-nonce-of-the-tab-0123456789';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startFakeServer();
  port = h.server.port;
});
afterAll(async () => {
  await h.close();
});

async function hello(at: number, nonce = NONCE): Promise<HelloResponse> {
  const answer = await send(at, { path: `/api/hello?nonce=${nonce}` });
  expect(answer.status).toBe(200);
  return answer.json as HelloResponse;
}

describe('GET /api/hello', () => {
  it('answers without a token, with a proof only a holder of the console token for this port can make', async () => {
    const answer = await hello(port);
    expect(answer.proof).toBe(mac(CONSOLE_TOKEN, `turnback-server|${port}|${NONCE}`));
    expect(answer.proof).not.toBe(mac(CONSOLE_TOKEN, `turnback-server|${port + 1}|${NONCE}`));
    const key = mac(CONSOLE_TOKEN, `turnback-session|${port}|${answer.salt}`);
    expect(answer.sessionProof).toBe(mac(key, `turnback-server|${port}|${NONCE}`));
    expect(JSON.stringify(answer)).not.toContain(CONSOLE_TOKEN);
    expect(JSON.stringify(answer)).not.toContain(key);
  });

  it('refuses a nonce that is not 16 to 128 base64url characters', async () => {
    for (const nonce of ['', 'short', 'x'.repeat(129), 'with+plus/and=0123456789']) {
      const answer = await send(port, { path: `/api/hello?nonce=${encodeURIComponent(nonce)}` });
      expect(answer.status, nonce).toBe(400);
    }
  });

  it('keeps Host and Origin checks', async () => {
    const answer = await send(port, { path: `/api/hello?nonce=${NONCE}`, headers: { Host: 'evil.example' } });
    expect(answer.status).toBe(403);
  });
});

describe('the session key', () => {
  it('opens the console routes and the event stream (?session=), as the console token does', async () => {
    const { salt } = await hello(port);
    const key = mac(CONSOLE_TOKEN, `turnback-session|${port}|${salt}`);
    expect((await send(port, { path: '/api/sessions', token: key })).status).toBe(200);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `/api/events?session=${key}` }, (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('is refused by another run of the service (same tokens, new salt) and for another port', async () => {
    const { salt } = await hello(port);
    const key = mac(CONSOLE_TOKEN, `turnback-session|${port}|${salt}`);
    const dist = await mkdtemp(path.join(tmpdir(), 'turnback-dist-'));
    let again: RunningServer | undefined;
    try {
      again = await startServer({
        engine: createFakeEngine(),
        port: 0,
        token: CONSOLE_TOKEN,
        agentToken: AGENT_TOKEN,
        distDir: dist,
        log: { error: () => {} },
      });
      // The key a listener on the old port could have got, replayed against the service that runs now.
      const replayed = await send(again.port, { path: '/api/sessions', token: key });
      expect(replayed.status).toBe(401);
      const forThatPort = mac(CONSOLE_TOKEN, `turnback-session|${port}|${(await hello(again.port)).salt}`);
      expect((await send(again.port, { path: '/api/sessions', token: forThatPort })).status).toBe(401);
      expect((await hello(again.port)).salt).not.toBe(salt);
    } finally {
      await again?.close();
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('a key made with another token is 401', async () => {
    expect((await send(port, { path: '/api/sessions', token: mac('another token', 'x') })).status).toBe(401);
  });
});

describe('the Unix socket', () => {
  it('serves the same routes without Host checks, the token still required', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'turnback-sock-'));
    const socketPath = path.join(dir, 'service.sock');
    const server = await startServer({
      engine: createFakeEngine(),
      port: 0,
      token: CONSOLE_TOKEN,
      agentToken: AGENT_TOKEN,
      distDir: dir,
      socketPath,
      log: { error: () => {} },
    });
    const over = (token?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { socketPath, path: '/api/health', headers: token ? { Authorization: `Bearer ${token}` } : {} },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await over(AGENT_TOKEN)).toBe(200);
      expect(await over()).toBe(401);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
