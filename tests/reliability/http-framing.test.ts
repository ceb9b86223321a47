// One answer per request: after a response that says `Connection: close`, the server must not
// answer again on that connection (RFC 9112 §9.6), even when the client sent stray bytes after
// its request. node's own client does that for a body on OPTIONS or DELETE (no framing).
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { startServer, type RunningServer } from '../../server/http/server.js';
import { openTestEngine } from './open-engine.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
let sandbox: Sandbox;
let engine: Engine;
let server: RunningServer;
let distDir: string;

beforeAll(async () => {
  sandbox = await makeSandbox({ 'a.txt': 'a\n' });
  distDir = await mkdtemp(join(tmpdir(), 'turnback-dist-'));
  engine = await openTestEngine(sandbox, {});
  server = await startServer({ engine, port: 0, distDir, log: { info: () => {}, error: () => {} } });
});

afterAll(async () => {
  writeTally('HTTP framing', tally);
  await server?.close();
  await engine?.close();
  await sandbox?.cleanup();
  await rm(distDir, { recursive: true, force: true });
});

/**
 * Sends OPTIONS with a body and a foreign Origin (refused with 403 and `Connection: close`),
 * and answers how many HTTP responses came back on the connection (the client reports bytes
 * after a closing response as a parse error).
 */
function responsesFor(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        method: 'OPTIONS',
        path: '/',
        agent: false,
        headers: { host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(1));
      },
    );
    r.on('error', (e: NodeJS.ErrnoException & { rawPacket?: Buffer }) => {
      if (e.code === 'HPE_CLOSED_CONNECTION')
        resolve(e.rawPacket?.toString('latin1').match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0);
      else reject(e);
    });
    r.end('{}');
  });
}

describe('HTTP framing', () => {
  it('stray bytes after a request get no second response after Connection: close', async () => {
    const responses: number[] = [];
    for (let i = 0; i < 40; i++) {
      responses.push(await responsesFor(server.port));
      tally.cases++;
      tally.requests++;
    }
    tally.failures += responses.filter((n) => n !== 1).length;
    expect(responses).toEqual(Array(40).fill(1));
  }, 60_000);
});
