import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './headers.js';
import { startServer } from './server.js';
import { createFakeEngine } from './test/fake-engine.js';
import { send, sendRaw } from './test/client.js';
import { AGENT_TOKEN, CONSOLE_TOKEN, startFakeServer, type Harness } from './test/harness.js';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startFakeServer();
  port = h.server.port;
});
afterAll(async () => {
  await h.close();
});

const code = (answer: { json: any }) => answer.json?.error?.code;

describe('Host and Origin', () => {
  it('accepts the three loopback names', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const answer = await send(port, { path: '/api/health', token: CONSOLE_TOKEN, headers: { Host: host } });
      expect(answer.status, host).toBe(200);
    }
  });

  it('refuses any other Host with 403 FORBIDDEN, before the token is looked at', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      '127.0.0.1',
      `127.0.0.1:${port + 1}`,
      `127.0.0.2:${port}`,
      '',
    ]) {
      const answer = await send(port, { path: '/api/health', headers: { Host: host } });
      expect(answer.status, host).toBe(403);
      expect(code(answer)).toBe('FORBIDDEN');
    }
  });

  it('refuses a foreign Origin and Origin: null with 403, before the token', async () => {
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const answer = await send(port, { path: '/api/sessions', headers: { Origin: origin } });
      expect(answer.status, origin).toBe(403);
      expect(code(answer)).toBe('FORBIDDEN');
    }
  });

  it('accepts an Origin equal to http:// + Host', async () => {
    const answer = await send(port, {
      path: '/api/sessions',
      token: CONSOLE_TOKEN,
      headers: { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
    });
    expect(answer.status).toBe(200);
  });
});

describe('tokens', () => {
  it('answers 401 without a token, with a wrong token, and with a malformed Authorization', async () => {
    expect(code(await send(port, { path: '/api/sessions' }))).toBe('UNAUTHORIZED');
    expect((await send(port, { path: '/api/sessions', token: 'nope' })).status).toBe(401);
    expect((await send(port, { path: '/api/sessions', headers: { Authorization: CONSOLE_TOKEN } })).status).toBe(401);
    expect(
      (await send(port, { path: '/api/sessions', headers: { Authorization: `Basic ${CONSOLE_TOKEN}` } })).status,
    ).toBe(401);
  });

  it('lets the agent token open only /api/agent/* and /api/health', async () => {
    expect((await send(port, { path: '/api/health', token: AGENT_TOKEN })).status).toBe(200);
    const agentInput = await send(port, {
      method: 'POST',
      path: '/api/agent/message',
      token: AGENT_TOKEN,
      body: { sessionId: 's1', role: 'assistant', content: 'hi' },
    });
    expect(agentInput.status).toBe(200);
    for (const path of ['/api/sessions', '/api/store', '/api/turns/t1', '/api/events', '/api/nothing-here']) {
      const answer = await send(port, { path, token: AGENT_TOKEN });
      expect(answer.status, path).toBe(401);
      expect(code(answer)).toBe('UNAUTHORIZED');
    }
    const rollback = await send(port, { method: 'POST', path: '/api/turns/t1/rollback', token: AGENT_TOKEN, body: {} });
    expect(rollback.status).toBe(401);
  });

  it('lets the console token open agent routes too', async () => {
    const answer = await send(port, {
      method: 'POST',
      path: '/api/agent/turn-end',
      token: CONSOLE_TOKEN,
      body: { sessionId: 's1' },
    });
    expect(answer.status).toBe(200);
  });

  it('serves the page for the printed URL without any cookie: the page itself keeps the token', async () => {
    const page = await send(port, { path: `/?token=${CONSOLE_TOKEN}`, headers: { Accept: 'text/html' } });
    expect(page.status).not.toBe(401);
    expect(page.status).not.toBe(303);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers.location).toBeUndefined();
  });

  it('never takes a token from a cookie', async () => {
    for (const cookie of [
      `turnback_${port}=${CONSOLE_TOKEN}`,
      `token=${CONSOLE_TOKEN}`,
      `other=1; turnback_${port}=${CONSOLE_TOKEN}`,
    ]) {
      const answer = await send(port, { path: '/api/sessions', headers: { Cookie: cookie } });
      expect([answer.status, code(answer)], cookie).toEqual([401, 'UNAUTHORIZED']);
    }
  });

  it('takes ?token= on /api/events only', async () => {
    for (const path of [
      '/api/sessions',
      '/api/store',
      '/api/turns/t1',
      '/api/health',
      '/api/agent/fs/read?uri=workspace:/a.txt',
    ]) {
      const target = `${path}${path.includes('?') ? '&' : '?'}token=${CONSOLE_TOKEN}`;
      const answer = await send(port, { path: target });
      expect([answer.status, code(answer)], target).toEqual([401, 'UNAUTHORIZED']);
    }
  });

  it('refuses a wrong or agent token in the printed URL, setting no cookie', async () => {
    expect((await send(port, { path: '/?token=wrong' })).status).toBe(401);
    const agentLogin = await send(port, { path: `/?token=${AGENT_TOKEN}` });
    expect(agentLogin.status).toBe(401);
    expect(agentLogin.headers['set-cookie']).toBeUndefined();
  });
});

describe('the order of the checks', () => {
  it('Host → Origin → token → route → method → content type → size → JSON', async () => {
    const bad = { Host: 'evil.example', Origin: 'null' };
    expect(code(await send(port, { method: 'PUT', path: '/api/nope', headers: bad }))).toBe('FORBIDDEN');
    expect(code(await send(port, { method: 'PUT', path: '/api/nope', headers: { Origin: 'null' } }))).toBe('FORBIDDEN');
    expect(code(await send(port, { method: 'PUT', path: '/api/nope' }))).toBe('UNAUTHORIZED');
    expect(code(await send(port, { method: 'PUT', path: '/api/nope', token: CONSOLE_TOKEN }))).toBe('NOT_FOUND');
    const wrongMethod = await send(port, {
      method: 'PUT',
      path: '/api/turns/t1/rollback',
      token: CONSOLE_TOKEN,
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(wrongMethod.status).toBe(405);
    expect(code(wrongMethod)).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.allow).toBe('POST');
    const huge = 'x'.repeat(17 * 1024 * 1024);
    const wrongType = await send(port, {
      method: 'POST',
      path: '/api/turns/t1/rollback',
      token: CONSOLE_TOKEN,
      body: huge,
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    expect(code(wrongType)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const tooLarge = await send(port, {
      method: 'POST',
      path: '/api/turns/t1/rollback',
      token: CONSOLE_TOKEN,
      body: huge,
    });
    expect(tooLarge.status).toBe(413);
    expect(code(tooLarge)).toBe('PAYLOAD_TOO_LARGE');
    const notJson = await send(port, {
      method: 'POST',
      path: '/api/turns/t1/rollback',
      token: CONSOLE_TOKEN,
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(code(notJson)).toBe('BAD_REQUEST');
    expect(h.engine.calls.filter((call) => call.method === 'rollback')).toHaveLength(0);
  });

  it('accepts application/json with parameters and treats an empty body as {}', async () => {
    const answer = await send(port, {
      method: 'POST',
      path: '/api/turns/t1/preview',
      token: CONSOLE_TOKEN,
      body: '',
      headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.turnId).toBe('t1');
  });
});

describe('headers', () => {
  it('API answers carry Cache-Control: no-store and no-referrer, errors included', async () => {
    for (const answer of [
      await send(port, { path: '/api/health', token: CONSOLE_TOKEN }),
      await send(port, { path: '/api/health' }),
    ]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('carries the exact Content-Security-Policy of the contract', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src blob:; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });
});

describe('malformed requests', () => {
  it('answers 400 to a broken request line or header and keeps serving', async () => {
    const garbage = await sendRaw(port, 'GARBAGE\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    const badHeader = await sendRaw(port, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nBad Header\r\n\r\n`);
    expect(badHeader).toMatch(/^HTTP\/1\.1 400/);
    const nul = await sendRaw(port, `GET /\0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(nul).toMatch(/^HTTP\/1\.1 400/);
    expect((await send(port, { path: '/api/health', token: CONSOLE_TOKEN })).status).toBe(200);
  });

  it('answers 431 to oversized headers', async () => {
    const answer = await sendRaw(
      port,
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
  });

  it('refuses an absolute-form request target', async () => {
    const answer = await sendRaw(
      port,
      `GET http://127.0.0.1:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers never end', async () => {
    const server = await startServer({
      engine: createFakeEngine(),
      port: 0,
      token: 't',
      headersTimeoutMs: 300,
      log: { info() {}, error() {} },
    });
    try {
      // The headers never end: the server must answer and hang up on its own.
      const answer = await sendRaw(server.port, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await server.close();
    }
  });
});
