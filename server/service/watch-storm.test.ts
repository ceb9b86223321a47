// One busy workspace must not stall the service: a process in workspace A swaps two files by
// rename in a tight loop while workspace B runs an agent turn through the service's hooks. Every
// health request is answered (within a generous bound: the stall this guards against lasted the
// whole storm), and B's command lists exactly what it changed.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import { fsTreeWatcher, openEngine } from '../engine/index.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import { WorkspaceHost } from './host.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
/** How long the storm runs: far longer than the bound, so a loop held for the whole storm fails it. */
const STORM_MS = 25_000;
/** Swaps one.txt and two.txt by renameat2(RENAME_EXCHANGE) as fast as it can, for STORM_MS. */
const SWAP_STORM = `
import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
end = time.time() + ${STORM_MS / 1000}
while time.time() < end:
    for i in range(2000):
        libc.renameat2(-100, b'one.txt', -100, b'two.txt', 2)
`;
/** A health request slower than this counts as a stall (the stall lasted the whole storm). */
const ANSWER_WITHIN_MS = 10_000;

let root: string;
let host: WorkspaceHost;
let server: RunningServer;
const repo = (name: string) => path.join(root, 'home', name);
const get = (route: string) => send(server.port, { path: route, token: TOKEN });
const hook = (event: unknown) =>
  send(server.port, { method: 'POST', path: '/api/agent/hook/claude-code', token: AGENT, body: event });

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-watch-storm-')));
  for (const name of ['alpha', 'beta']) {
    await mkdir(path.join(repo(name), '.git'), { recursive: true });
    await writeFile(path.join(repo(name), 'app.txt'), `${name} v1\n`);
  }
  await writeFile(path.join(repo('alpha'), 'one.txt'), 'one\n');
  await writeFile(path.join(repo('alpha'), 'two.txt'), 'two\n');
  const env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state') };
  host = new WorkspaceHost({
    env,
    engineOptions: { scopes: ['claude-code:*'], watcher: fsTreeWatcher },
    open: openEngine,
  });
  server = await startServer({
    source: host,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    routes: claudeCodeRoutes(),
    log: { error() {} },
  });
});
afterEach(async () => {
  await server?.close();
  await host?.close(1_000);
  await rm(root, { recursive: true, force: true });
});

/** One turn of one Bash command in `name`'s workspace: the command's change made between its hooks; the turn's id and steps. */
async function turn(name: string, sessionId: string, change: () => Promise<void>) {
  const c = { cwd: repo(name), sessionId };
  const started = Date.now();
  const hooks: number[] = [];
  const timed = async (event: unknown) => {
    const at = Date.now();
    const answer = await hook(event);
    hooks.push(Date.now() - at);
    expect(answer.json.outcome).toBe('forwarded');
  };
  await timed(p.userPromptSubmit(c, `change ${name}`));
  const pre = p.bash(c, 'echo changed > app.txt');
  await timed(pre);
  await change();
  await timed(p.postToolUse(pre));
  await timed(p.stop(c));
  const { workspaces } = (await get('/api/workspaces')).json;
  const id = workspaces.find((w: { name: string }) => w.name === name).id;
  const prefix = `/api/workspaces/${id}`;
  const [session] = (await get(`${prefix}/sessions`)).json.sessions;
  const turns = (await get(`${prefix}/sessions/${session.sessionId}/turns`)).json.turns;
  const last = turns[turns.length - 1];
  const steps = (await get(`${prefix}/turns/${last.turnId}/steps`)).json.steps;
  return { steps: steps.map((s: { paths: string[] }) => s.paths), hooks, ms: Date.now() - started };
}

describe('a rename storm in one workspace', () => {
  it('leaves health answering and the other workspace recording exactly', async () => {
    // Both engines open, with their watchers.
    await turn('alpha', 'a1111111-1111-4111-8111-111111111111', async () => undefined);
    await turn('beta', 'b2222222-2222-4222-8222-222222222222', async () => undefined);
    const storm = spawn('python3', ['-c', SWAP_STORM], { cwd: repo('alpha'), stdio: 'ignore' });
    const ended = new Promise((resolve) => storm.on('exit', resolve));
    const health: number[] = [];
    let storming = true;
    void ended.then(() => (storming = false));
    const polling = (async () => {
      while (storming) {
        // From before the pause: a stalled loop delays the timer as much as the answer.
        const at = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 100));
        // A request the stalled service dropped counts as never answered.
        const status = await get('/api/health').then(
          (answer) => answer.status,
          () => 0,
        );
        health.push(status === 200 ? Date.now() - at - 100 : Number.POSITIVE_INFINITY);
      }
    })();
    // Beta's turn, in the middle of the storm.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const beta = await turn('beta', 'b2222222-2222-4222-8222-222222222222', () =>
      writeFile(path.join(repo('beta'), 'app.txt'), 'beta v2\n'),
    );
    await ended;
    await polling;
    expect(beta.steps).toEqual([['workspace:/app.txt']]);
    const slowest = Math.max(...health);
    expect(
      slowest,
      `health latencies ${JSON.stringify(health)}; beta's hooks ${JSON.stringify(beta.hooks)}`,
    ).toBeLessThan(ANSWER_WITHIN_MS);
    expect(health.length).toBeGreaterThan(5);
    expect(Math.max(...beta.hooks)).toBeLessThan(ANSWER_WITHIN_MS);
  }, 120_000);
});
