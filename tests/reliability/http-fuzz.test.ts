// HTTP fuzzing: fast-check generated request targets, headers and JSON bodies against a real
// server on loopback, plus malformed raw requests. No 5xx, no crash, nothing touched outside
// the workspace and the data dir, and every rejection is a JSON error with a code.
import { lstat, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { startServer, type RunningServer } from '../../server/http/server.js';
import { fuzzRequestArb, type FuzzContext, type FuzzRequest } from './fuzz-arbitraries.testutil.js';
import { errorBodyProblem, rawRequest, type RawAnswer } from './http.testutil.js';
import { FULL, quickOrFull } from './mode.testutil.js';
import { openTestEngine } from './open-engine.testutil.js';
import { makeSandbox, plantEscapeLink, type Sandbox } from '../../server/testkit/sandbox.js';
import { agentEdits, SESSION, START_FILES } from './scenarios.testutil.js';
import { splitKnown } from './known-defects.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';
import { snapshotTree, type Tree } from '../../server/testkit/tree.js';
import { treeDiff } from '../../server/testkit/tree-diff.js';

const tally = newTally();
let sandbox: Sandbox;
let engine: Engine;
let server: RunningServer;
let ctx: FuzzContext;
let outsideBefore: Tree;
let baseEntries: string[];
const serverErrors: string[] = [];

beforeAll(async () => {
  sandbox = await makeSandbox(START_FILES);
  await plantEscapeLink(sandbox);
  await symlink(join(sandbox.outside, 'secret.txt'), join(sandbox.workspace, 'secret-link'));
  engine = await openTestEngine(sandbox, {});
  const distDir = join(sandbox.base, 'dist');
  await mkdir(join(distDir, 'assets'), { recursive: true });
  await writeFile(join(distDir, 'index.html'), '<!doctype html><title>turnback</title>');
  await writeFile(join(distDir, 'assets', 'app.js'), 'console.log(1)');
  await symlink(sandbox.outside, join(distDir, 'assets', 'out'));
  server = await startServer({
    engine,
    port: 0,
    token: 'fuzz-console-token',
    agentToken: 'fuzz-agent-token',
    distDir,
    log: { info: () => {}, error: (m) => serverErrors.push(m) },
  });
  const { turnId } = await engine.input({
    sessionId: SESSION,
    platform: 'webui',
    sessionType: 'chat',
    content: 'seed',
  });
  await agentEdits(engine, SESSION);
  await engine.turnEnd({ sessionId: SESSION });
  ctx = {
    port: server.port,
    token: server.token,
    agentToken: server.agentToken,
    turnIds: [turnId!],
    sessionIds: [SESSION],
  };
  outsideBefore = await snapshotTree(sandbox.outside);
  baseEntries = (await readdir(sandbox.base)).sort();
});

afterAll(async () => {
  writeTally('HTTP fuzz', tally);
  await server?.close();
  await engine?.close();
  await sandbox?.cleanup();
});

/** Sends one fuzzed request; null when node's own client refuses to send it. */
async function send(req: FuzzRequest): Promise<RawAnswer | string | null> {
  try {
    return await rawRequest(server.port, req.method, req.target, req.headers, req.body);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (/^ERR_(INVALID|UNESCAPED)/.test(code)) return null;
    // The client could not parse what the server sent back: a framing fault of the server.
    if (code.startsWith('HPE_'))
      return `${req.method} ${req.target}: the answer is not valid HTTP (${code}: ${(e as { reason?: string }).reason})`;
    throw e;
  }
}

function answerProblem(req: FuzzRequest, answer: RawAnswer): string | null {
  const where = `${req.method} ${req.target}`;
  if (answer.status >= 500) return `${where}: ${answer.status} ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400 && req.method !== 'HEAD') {
    const problem = errorBodyProblem(answer);
    if (problem) return `${where}: ${problem}`;
  }
  return null;
}

/** A fuzzed delete or write may replace a planted link itself (inside the workspace, allowed); put it back. */
async function replantLink(): Promise<void> {
  for (const [name, target] of [
    ['escape', sandbox.outside],
    ['secret-link', join(sandbox.outside, 'secret.txt')],
  ]) {
    const link = join(sandbox.workspace, name);
    const stats = await lstat(link).catch(() => null);
    if (stats?.isSymbolicLink()) continue;
    if (stats) await rm(link, { recursive: true, force: true });
    await symlink(target, link).catch(() => {});
  }
}

describe('HTTP fuzz', () => {
  it(
    'generated requests: no 5xx, every rejection a JSON error with a code, nothing outside touched',
    async () => {
      const problems: string[] = [];
      const statuses: Record<number, number> = {};
      await fc.assert(
        fc.asyncProperty(fuzzRequestArb(ctx), async (req) => {
          await replantLink();
          const answer = await send(req);
          if (!answer) return;
          tally.requests++;
          tally.cases++;
          if (typeof answer === 'string') {
            tally.failures++;
            problems.push(answer);
            return;
          }
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          const problem = answerProblem(req, answer);
          if (problem) {
            tally.failures++;
            problems.push(problem);
          }
        }),
        { numRuns: quickOrFull(100, 3000), seed: FULL ? undefined : 20261130 },
      );
      tally.notes.push(`statuses ${JSON.stringify(statuses)}`);
      const { known, unexplained } = splitKnown(problems);
      if (known.size) tally.notes.push(`known defects: ${[...known].map(([id, n]) => `${id} ×${n}`).join(', ')}`);
      // The generators must reach the operations, not only the gate.
      expect(statuses[200]).toBeGreaterThan(0);
      expect(unexplained).toEqual([]);
      expect(treeDiff(outsideBefore, await snapshotTree(sandbox.outside))).toEqual([]);
      expect((await readdir(sandbox.base)).sort()).toEqual(baseEntries);
      expect(serverErrors.filter((m) => /INTERNAL|Error/.test(m))).toEqual([]);
      const health = await rawRequest(server.port, 'GET', '/api/health', {
        host: `127.0.0.1:${server.port}`,
        authorization: `Bearer ${server.token}`,
      });
      expect(health.status).toBe(200);
    },
    FULL ? 600_000 : 60_000,
  );

  it(
    'malformed raw requests never crash the server',
    async () => {
      const raw = fc.oneof(
        fc.constantFrom(
          'GET / HTTP/1.1\r\nHost: \x00\r\n\r\n',
          'GARBAGE\r\n\r\n',
          'GET /api/health HTTP/9.9\r\n\r\n',
          `POST /api/agent/fs/write HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999\r\n\r\n`,
          `POST /api/agent/fs/write HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nzz\r\n`,
          `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
          'GET / HTTP/1.1\r\n' + 'X: y\r\n'.repeat(3000) + '\r\n',
        ),
        fc.string({ maxLength: 300 }).map((s) => `GET /${s} HTTP/1.1\r\n${s}\r\n\r\n`),
        fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('latin1')),
      );
      await fc.assert(
        fc.asyncProperty(raw, async (text) => {
          tally.requests++;
          tally.cases++;
          await sendRaw(server.port, text);
        }),
        { numRuns: quickOrFull(40, 500), seed: FULL ? undefined : 20261130 },
      );
      const health = await rawRequest(server.port, 'GET', '/api/health', {
        host: `127.0.0.1:${server.port}`,
        authorization: `Bearer ${server.token}`,
      });
      expect(health.status).toBe(200);
    },
    FULL ? 600_000 : 60_000,
  );
});

/** Writes bytes on a fresh connection and waits for the server to answer or hang up. */
function sendRaw(port: number, text: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(12_000, () => socket.destroy());
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.on('data', () => {});
    socket.end(text, 'latin1');
  });
}
