// Load: 50 keep-alive connections on listTurns and getManifest while 20 rollbacks of distinct
// turns run at once, against a real server in its own process. No errors, no 5xx; p50/p99
// reported; open file descriptors and RSS of the server steady across 10,000 requests.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { kill, spawnTs, waitForLine } from './child.testutil.js';
import { rawRequest } from './http.testutil.js';
import { runLoad, type LoadRequest, type LoadResult } from './load-client.testutil.js';
import { FULL, quickOrFull } from './mode.testutil.js';
import { openFds, rssBytes } from './proc-stats.testutil.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('load', tally));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface ServerInfo {
  port: number;
  token: string;
  agentToken: string;
  pid: number;
}

const SESSIONS = 4;
const TURNS_PER_SESSION = 5;

async function startLoadServer(): Promise<{ info: ServerInfo; workspace: string }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < SESSIONS * TURNS_PER_SESSION; i++) files[`f${i}.txt`] = `original ${i}\n`;
  const sandbox = await makeSandbox(files);
  cleanups.push(() => sandbox.cleanup());
  const child = spawnTs('tests/reliability/load-server.ts', [sandbox.workspace, sandbox.dataDir]);
  cleanups.push(() => kill(child, 'SIGTERM'));
  const info = JSON.parse(await waitForLine(child, /^\{/)) as ServerInfo;
  return { info, workspace: sandbox.workspace };
}

function client(info: ServerInfo) {
  const headers = (token: string) => ({
    host: `127.0.0.1:${info.port}`,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  return async (method: string, path: string, body?: unknown, token = info.token) => {
    // A rollback queues behind the others of its session while 50 connections keep the server busy.
    const answer = await rawRequest(
      info.port,
      method,
      path,
      headers(token),
      body === undefined ? undefined : JSON.stringify(body),
      300_000,
    );
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
}

/** Waits until the server has closed what the client let go of. */
async function settledFds(pid: number): Promise<number> {
  let last = await openFds(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await openFds(pid);
    if (now === last) return now;
    last = now;
  }
  return last;
}

function describeLoad(name: string, r: LoadResult): string {
  return `${name}: ${r.requests} requests, ${r.errors} errors, statuses ${JSON.stringify(r.statuses)}, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms`;
}

describe('load', () => {
  it(
    '50 connections with 20 concurrent rollbacks: no errors, no 5xx, steady fds and RSS',
    async () => {
      const { info, workspace } = await startLoadServer();
      const api = client(info);
      const turnIds: string[] = [];
      for (let s = 0; s < SESSIONS; s++) {
        const sessionId = `load-${s}`;
        for (let t = 0; t < TURNS_PER_SESSION; t++) {
          const { turnId } = await api(
            'POST',
            '/api/agent/input',
            { sessionId, platform: 'webui', sessionType: 'chat', content: `turn ${t}` },
            info.agentToken,
          );
          await api(
            'POST',
            '/api/agent/fs/write',
            { sessionId, uri: `workspace:/f${turnIds.length}.txt`, content: `changed ${turnIds.length}\n` },
            info.agentToken,
          );
          await api('POST', '/api/agent/turn-end', { sessionId }, info.agentToken);
          turnIds.push(turnId as string);
        }
      }
      const auth = { host: `127.0.0.1:${info.port}`, authorization: `Bearer ${info.token}` };
      const browse = (w: number, i: number): LoadRequest =>
        i % 2 === 0
          ? { method: 'GET', path: `/api/sessions/load-${(w + i) % SESSIONS}/turns`, headers: auth }
          : { method: 'GET', path: `/api/turns/${turnIds[(w * 7 + i) % turnIds.length]}`, headers: auth };

      await runLoad({ port: info.port, connections: 50, durationMs: 10_000, maxRequests: 500, next: browse });
      const fdsAtStart = await settledFds(info.pid);
      const rssAtStart = await rssBytes(info.pid);
      const rollbackMs: number[] = [];
      const rollbacks = Promise.all(
        turnIds.map(async (id) => {
          const started = performance.now();
          const result = await api('POST', `/api/turns/${id}/rollback`, {});
          rollbackMs.push(performance.now() - started);
          return result;
        }),
      );
      const main = await runLoad({
        port: info.port,
        connections: 50,
        durationMs: quickOrFull(5_000, 30_000),
        next: browse,
      });
      const results = await rollbacks;
      tally.notes.push(describeLoad(`${quickOrFull('5', '30')} s load`, main));
      rollbackMs.sort((a, b) => a - b);
      tally.notes.push(
        `20 concurrent rollbacks (4 sessions, one at a time each) answered in ${(rollbackMs[0] / 1000).toFixed(1)}-${(rollbackMs.at(-1)! / 1000).toFixed(1)} s`,
      );
      // The full run adds 10,000 more requests, the span over which descriptors and memory must hold.
      const steady = FULL
        ? await runLoad({ port: info.port, connections: 50, durationMs: 300_000, maxRequests: 10_000, next: browse })
        : null;
      if (steady) tally.notes.push(describeLoad('then 10,000 requests', steady));
      const fdsAtEnd = await settledFds(info.pid);
      const rssAtEnd = await rssBytes(info.pid);
      const sent = main.requests + (steady?.requests ?? 0);
      tally.notes.push(
        `server over ${sent} requests: open fds ${fdsAtStart} → ${fdsAtEnd}, RSS ${mib(rssAtStart)} → ${mib(rssAtEnd)} MiB`,
      );
      tally.cases += steady ? 3 : 2;
      tally.requests += 500 + sent + turnIds.length;
      const all = [main, ...(steady ? [steady] : [])];
      tally.failures += all.reduce((n, r) => n + r.errors + sum5xx(r), 0);

      expect(all.flatMap((r) => r.firstErrors)).toEqual([]);
      expect(all.reduce((n, r) => n + r.errors, 0)).toBe(0);
      expect(Object.keys(Object.assign({}, ...all.map((r) => r.statuses)))).toEqual(['200']);
      expect(results.every((r) => r.ok === true && r.rollbackTurnId)).toBe(true);
      for (let i = 0; i < turnIds.length; i++)
        expect(await readFile(join(workspace, `f${i}.txt`), 'utf8')).toBe(`original ${i}\n`);
      if (steady) expect(steady.requests).toBe(10_000);
      // A leak of one descriptor per request would show as hundreds; a few may be the store's own.
      expect(fdsAtEnd - fdsAtStart).toBeLessThanOrEqual(5);
      expect(rssAtEnd - rssAtStart).toBeLessThan(64 * 2 ** 20);
    },
    FULL ? 600_000 : 90_000,
  );
});

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}

function sum5xx(r: LoadResult): number {
  return Object.entries(r.statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
}
