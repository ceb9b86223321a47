import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './body.js';
import { send } from './test/client.js';
import { CONSOLE_TOKEN, startFakeServer, type Harness } from './test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startFakeServer();
});
afterAll(async () => {
  await h.close();
});

/**
 * Starts a POST and writes `chunk` until the server answers or `maxBytes` went out; resolves with
 * the status and the bytes written by then. The server must answer without waiting for the rest.
 */
function postUntilAnswered(
  headers: Record<string, string>,
  chunk: Buffer,
  maxBytes: number,
): Promise<{ status: number; written: number; code: string }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: h.server.port,
        method: 'POST',
        path: '/api/agent/fs/write',
        headers: {
          Host: `127.0.0.1:${h.server.port}`,
          Authorization: `Bearer ${CONSOLE_TOKEN}`,
          'Content-Type': 'application/json',
          ...headers,
        },
      },
      (incoming) => {
        answered = true;
        const parts: Buffer[] = [];
        incoming.on('data', (part: Buffer) => parts.push(part));
        incoming.on('end', () => {
          outgoing.destroy();
          resolve({
            status: incoming.statusCode ?? 0,
            written,
            code: JSON.parse(Buffer.concat(parts).toString()).error?.code,
          });
        });
      },
    );
    outgoing.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = (): void => {
      while (!answered && written < maxBytes) {
        written += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
    };
    outgoing.write('{"sessionId":"s1","uri":"workspace:/big","content":"');
    pump();
  });
}

describe('the 16 MiB body limit', () => {
  it('is 16 MiB', () => {
    expect(MAX_BODY_BYTES).toBe(16 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit before the body arrives', async () => {
    const answer = await postUntilAnswered(
      { 'Content-Length': String(MAX_BODY_BYTES + 1) },
      Buffer.alloc(1024, 'a'),
      64 * 1024,
    );
    expect(answer.status).toBe(413);
    expect(answer.code).toBe('PAYLOAD_TOO_LARGE');
    expect(h.engine.calls.some((call) => call.method === 'writeFile')).toBe(false);
  });

  it('counts a chunked body while it streams and refuses it once past the limit', async () => {
    const oneMiB = Buffer.alloc(1024 * 1024, 'a');
    const answer = await postUntilAnswered({ 'Transfer-Encoding': 'chunked' }, oneMiB, 256 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.code).toBe('PAYLOAD_TOO_LARGE');
    // The answer came long before the 256 MiB the client was ready to send.
    expect(answer.written).toBeLessThan(64 * 1024 * 1024);
    expect(h.engine.calls.some((call) => call.method === 'writeFile')).toBe(false);
  });

  it('shrugs off a client that hangs up mid-body: nothing logged, nothing written', async () => {
    await new Promise<void>((resolve) => {
      const outgoing = request({
        host: '127.0.0.1',
        port: h.server.port,
        method: 'POST',
        path: '/api/agent/fs/write',
        headers: {
          Host: `127.0.0.1:${h.server.port}`,
          Authorization: `Bearer ${CONSOLE_TOKEN}`,
          'Content-Type': 'application/json',
          'Content-Length': '1000',
        },
      });
      outgoing.on('error', () => resolve());
      outgoing.write('{"sessionId":"s1",', () => setTimeout(() => outgoing.destroy(), 50));
    });
    expect((await send(h.server.port, { path: '/api/health', token: CONSOLE_TOKEN })).status).toBe(200);
    expect(h.errors).toEqual([]);
    expect(h.engine.calls.some((call) => call.method === 'writeFile')).toBe(false);
  });

  it('keeps serving after a refused body', async () => {
    expect((await send(h.server.port, { path: '/api/health', token: CONSOLE_TOKEN })).status).toBe(200);
  });
});
