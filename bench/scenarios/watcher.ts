// Item 16: the filesystem watcher kept honest and the service kept answering (issue 38). The
// commander.js history replayed as shell commands (`git read-tree -m -u`, which removes and makes
// folders again) through exec / exec-end with the watcher on: its misses (target 0) and each
// command's list against git's. Health and hook round trips of a second workspace while a process
// swaps two files by rename in a tight loop in the first, whose agent runs commands too (targets:
// p99 ≤ 100 ms, ≤ 300 ms), and the watcher alone under that storm: the service loop's CPU.
// Exec-end of a command that checks out a large tree in the same workspace: exact, and its time;
// and that checkout as an agent's command through the service, with health and hook round trips
// of the other workspace timed from before it to its exec-end's answer.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { BenchContext } from '../context.js';
import { removeTree } from '../fs-tools.js';
import { loadHistory, SHARED_DATA_DIR } from '../history/source.js';
import { cpuProfilerFromEnv } from '../cpu-profile.js';
import { quantile, summarize } from '../stats.js';

export const WATCHER_SECTION = '16';
const SESSION = 'bench-watcher';

export async function watcherScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.openEngine) return;
  await missesOverHistory(ctx);
  await stormLatency(ctx);
  await stormTakes(ctx);
  await largeCheckout(ctx);
  await checkoutLatency(ctx);
}

const gitOptions = (cwd: string) => ({
  cwd,
  encoding: 'utf8' as const,
  maxBuffer: 256 << 20,
  env: {
    ...process.env,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b',
  },
});
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, gitOptions(cwd)).trim();
/** git in a child process without blocking this loop, which serves while it runs. */
const gitAsync = promisify(execFile);

async function watchedEngine(ctx: BenchContext, workspace: string, dataDir: string, lines: string[]) {
  const { fsTreeWatcher } = await import('../../server/engine/index.js');
  return ctx.openEngine!({
    workspace,
    dataDir,
    watcher: fsTreeWatcher,
    log: (line: string) => lines.push(line),
  } as never);
}

async function missesOverHistory(ctx: BenchContext): Promise<void> {
  const base = ctx.path('watcher-history');
  const bundle = path.join(SHARED_DATA_DIR, 'commander.js.bundle');
  const span = {
    bundle,
    base: '8b8d6e663dbebf2b8794d432f2ae94e53b7164ea',
    commits: 190,
    turns: ctx.config.historyTurns,
  };
  const history = await loadHistory(span, path.join(base, 'source.git'));
  if (!history) {
    ctx.results.notMeasured(WATCHER_SECTION, `${bundle} is not there`);
    return;
  }
  const workspace = path.join(base, 'workspace');
  git(base, 'clone', '-q', '--no-checkout', bundle, workspace);
  git(workspace, 'read-tree', '-m', '-u', span.base);
  const lines: string[] = [];
  const engine = await watchedEngine(ctx, workspace, path.join(base, 'data'), lines);
  const times: number[] = [];
  let wrong = 0;
  let firstWrong: string | null = null;
  let previous = span.base;
  try {
    for (const turn of history.turns) {
      await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: turn.commit });
      const { execId } = await engine.exec({
        sessionId: SESSION,
        tool: 'Bash',
        command: `git read-tree -m -u ${turn.commit}`,
      });
      git(workspace, 'read-tree', '-m', '-u', previous, turn.commit);
      const started = performance.now();
      const { changed } = await engine.execEnd({ sessionId: SESSION, execId: execId! });
      times.push(performance.now() - started);
      const expected = git(
        workspace,
        '-c',
        'core.quotePath=false',
        'diff',
        '--name-only',
        '--no-renames',
        previous,
        turn.commit,
      )
        .split('\n')
        .filter(Boolean);
      const listed = new Set(changed);
      const lacking = expected.filter((rel) => !listed.has(`workspace:/${rel}`));
      if (lacking.length > 0) {
        wrong++;
        firstWrong ??= `${turn.commit.slice(0, 8)} lacked ${lacking.slice(0, 3).join(', ')}`;
      }
      await engine.turnEnd({ sessionId: SESSION });
      previous = turn.commit;
    }
    const misses = engine.watcherStatus().misses ?? 0;
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.history.execEnd',
      'commander.js as shell commands: exec-end',
      'turnback',
      'ms',
      summarize(times),
    );
    ctx.results.note(
      WATCHER_SECTION,
      `commander.js replayed as ${history.turns.length} \`git read-tree -m -u\` commands with the watcher: ${misses} watcher misses (target 0), ` +
        `${wrong} commands whose exec-end lacked a path git changed (target 0${firstWrong ? `; first: ${firstWrong}` : ''})` +
        (misses > 0 ? `; first: ${lines.find((l) => l.startsWith('watcher miss:'))}` : ''),
    );
  } finally {
    await engine.close();
    await removeTree(base);
  }
}

/** Swaps one.txt and two.txt by renameat2(RENAME_EXCHANGE) as fast as it can, for `seconds`. */
const swapStorm = (seconds: number) => `
import ctypes, time
libc = ctypes.CDLL(None, use_errno=True)
end = time.time() + ${seconds}
while time.time() < end:
    for i in range(2000):
        libc.renameat2(-100, b'one.txt', -100, b'two.txt', 2)
`;

/**
 * The clients, as plain JavaScript run on a thread (node:http, kept-alive sockets): a health
 * request every 50 ms, each request timed alone (not the pause: the thread's own timer lag is no
 * answer time), back to back Bash turns through the Claude Code hooks in workspace beta, each hook
 * timed, and with `alpha`, untimed turns there too. Until `until`, or a message that says stop.
 */
const STORM_CLIENTS = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { writeFile } = require('node:fs/promises');
const path = require('node:path');
const { port, token, agent, beta, alpha, until } = workerData;
const keepAlive = new http.Agent({ keepAlive: true });
const call = (method, route, bearer, body) =>
  new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Authorization: 'Bearer ' + bearer, 'Content-Type': 'application/json' };
    if (data !== undefined) headers['Content-Length'] = Buffer.byteLength(data);
    const request = http.request({ host: '127.0.0.1', port, method, path: route, agent: keepAlive, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => (answer.statusCode < 300 ? resolve() : reject(new Error(route + ': ' + answer.statusCode))));
    });
    request.on('error', reject);
    request.end(data);
  });
const hook = (cwd, session, event) =>
  call('POST', '/api/agent/hook/claude-code', agent, {
    session_id: session, transcript_path: '/tmp/none.jsonl', cwd, permission_mode: 'default', ...event,
  });
const health = [];
const hooks = [];
let tool = 0;
/** One Bash turn in cwd, its hooks timed into samples (null: not counted). */
const turn = async (cwd, session, samples) => {
  const timed = async (event) => {
    const started = performance.now();
    await hook(cwd, session, event);
    samples?.push(performance.now() - started);
  };
  const id = 'toolu_storm_' + ++tool;
  const pre = {
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'echo >> app.txt' },
    tool_use_id: id,
  };
  await timed({ hook_event_name: 'UserPromptSubmit', prompt: 'bench' });
  await timed(pre);
  await writeFile(path.join(cwd, 'app.txt'), 'turn ' + tool + '\n');
  await timed({ ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '', interrupted: false } });
  await timed({ hook_event_name: 'Stop', stop_hook_active: false });
};
let stopped = false;
parentPort.on('message', () => (stopped = true));
const going = () => !stopped && Date.now() < until;
const polling = (async () => {
  while (going()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await call('GET', '/api/health', token);
    health.push(performance.now() - started);
  }
})();
// The storming workspace's own agent runs commands too: each one's barrier watches its folders again.
const storming = (async () => {
  while (alpha && going()) await turn(alpha, 'a1111111-1111-4111-8111-111111111111', null);
})();
(async () => {
  while (going()) await turn(beta, 'b2222222-2222-4222-8222-222222222222', hooks);
  await polling;
  await storming;
  parentPort.postMessage({ health, hooks });
})();
`;

/** CPU time of this process's main thread (the service's loop) in ms, from /proc (0 where there is none). */
function loopCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 10 ms (fields 14 and 15 of proc(5)).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Each workspace's Claude Code session, the one STORM_CLIENTS runs its turns in. */
const SESSIONS: Record<string, string> = {
  alpha: 'a1111111-1111-4111-8111-111111111111',
  beta: 'b2222222-2222-4222-8222-222222222222',
};

type BenchService = Awaited<ReturnType<typeof startBenchService>>;

/**
 * A real service (host, watcher, Claude Code hooks) over workspaces the caller made under
 * `<base>/home`, each registered by a first untimed Bash turn of its agent.
 */
async function startBenchService(base: string, names: string[]) {
  const { WorkspaceHost } = await import('../../server/service/host.js');
  const { startServer } = await import('../../server/http/server.js');
  const { claudeCodeRoutes } = await import('../../server/adapters/claude-code/receive/route.js');
  const { fsTreeWatcher, openEngine } = await import('../../server/engine/index.js');
  const repo = (name: string) => path.join(base, 'home', name);
  const env = { HOME: path.join(base, 'home'), XDG_STATE_HOME: path.join(base, 'state') };
  const host = new WorkspaceHost({
    env,
    engineOptions: { scopes: ['claude-code:*'], watcher: fsTreeWatcher },
    open: openEngine,
  });
  const token = 'bench-console-token-0123456789';
  const agent = 'bench-agent-token-0123456789ab';
  const server = await startServer({
    source: host,
    port: 0,
    token,
    agentToken: agent,
    routes: claudeCodeRoutes(),
    log: { error() {} },
  });
  const call = async (method: string, route: string, bearer: string, body?: unknown) => {
    const answer = await fetch(`http://127.0.0.1:${server.port}${route}`, {
      method,
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`${route}: ${answer.status}`);
  };
  const hook = (event: Record<string, unknown>, cwd: string, session: string) =>
    call('POST', '/api/agent/hook/claude-code', agent, {
      session_id: session,
      transcript_path: '/tmp/none.jsonl',
      cwd,
      permission_mode: 'default',
      ...event,
    });
  let tool = 0;
  const turn = async (name: string, session: string, samples: number[] | null) => {
    const cwd = repo(name);
    const timed = async (event: Record<string, unknown>) => {
      const started = performance.now();
      await hook(event, cwd, session);
      samples?.push(performance.now() - started);
    };
    const id = `toolu_bench_${++tool}`;
    const pre = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo >> app.txt' },
      tool_use_id: id,
    };
    await timed({ hook_event_name: 'UserPromptSubmit', prompt: 'bench' });
    await timed(pre);
    await writeFile(path.join(cwd, 'app.txt'), `${name} ${tool}\n`);
    await timed({
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: '', stderr: '', interrupted: false },
    });
    await timed({ hook_event_name: 'Stop', stop_hook_active: false });
  };
  const close = async () => {
    await server.close();
    await host.close(1_000);
  };
  try {
    for (const name of names) await turn(name, SESSIONS[name]!, null);
  } catch (error) {
    await close();
    throw error;
  }
  return { host, port: server.port, token, agent, repo, hook, close };
}

/**
 * The clients of STORM_CLIENTS on a thread of their own, as the console and the hooks run in
 * processes of their own: the service's loop serves, and no client's work is counted as its answer
 * time. Hook turns in `beta`, untimed ones in `alpha` when given; `stop()` ends them early.
 */
function startClients(service: BenchService, workspaces: { beta: string; alpha: string | null }, until: number) {
  const clients = new Worker(STORM_CLIENTS, {
    eval: true,
    workerData: { port: service.port, token: service.token, agent: service.agent, ...workspaces, until },
  });
  const samples = new Promise<{ health: number[]; hooks: number[] }>((resolve, reject) => {
    clients.once('message', resolve);
    clients.once('error', reject);
  }).finally(() => clients.terminate());
  return { samples, stop: () => clients.postMessage('stop') };
}

/** Exported for a run of the storm alone; with PROFILE set, the service's loop is profiled during the storm (cpu-profile.ts). */
export async function stormLatency(ctx: BenchContext): Promise<void> {
  const base = ctx.path('watcher-storm');
  const repo = (name: string) => path.join(base, 'home', name);
  for (const name of ['alpha', 'beta']) {
    await mkdir(path.join(repo(name), '.git'), { recursive: true });
    await writeFile(path.join(repo(name), 'app.txt'), `${name}\n`);
  }
  await writeFile(path.join(repo('alpha'), 'one.txt'), 'one\n');
  await writeFile(path.join(repo('alpha'), 'two.txt'), 'two\n');
  const service = await startBenchService(base, ['alpha', 'beta']);
  try {
    const seconds = ctx.config.quick ? 8 : 30;
    const profiler = await cpuProfilerFromEnv(1_000);
    await profiler?.start();
    const storm = spawn('python3', ['-c', swapStorm(seconds)], { cwd: repo('alpha'), stdio: 'ignore' });
    const ended = new Promise((resolve) => storm.on('exit', resolve));
    const loopCpuAtStart = loopCpuMs();
    const clients = startClients(service, { beta: repo('beta'), alpha: repo('alpha') }, Date.now() + seconds * 1000);
    const { health, hooks } = await clients.samples;
    const loopCpu = loopCpuMs() - loopCpuAtStart;
    await ended;
    await profiler?.stop('.storm.cpuprofile');
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.storm.health',
      'GET /api/health during a rename storm in another workspace',
      'turnback',
      'ms',
      summarize(health),
    );
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.storm.hook',
      'a hook round trip in another workspace during the storm',
      'turnback',
      'ms',
      summarize(hooks),
    );
    ctx.results.note(
      WATCHER_SECTION,
      `rename storm (renameat2 RENAME_EXCHANGE, ${seconds} s): health p99 ${quantile(health, 0.99).toFixed(1)} ms (target ≤ 100) over ${health.length}, ` +
        `hook p99 ${quantile(hooks, 0.99).toFixed(1)} ms (target ≤ 300) over ${hooks.length}; ` +
        `the service's loop ran ${(loopCpu / 1000).toFixed(2)} s of CPU in the ${seconds} s; the clients on a thread of their own`,
    );
  } finally {
    await service.close();
    await removeTree(base);
  }
}

/**
 * The watcher alone under the storm, a barrier every 20 ms as the storming workspace's own
 * commands take them (each watches the storming folder again): the service's loop's CPU and its
 * timer lag, the watcher's whole cost on that loop (on its thread, only the messages are left).
 */
export async function stormTakes(ctx: BenchContext): Promise<void> {
  const { fsTreeWatcher } = await import('../../server/engine/index.js');
  const base = ctx.path('watcher-takes');
  const root = path.join(base, 'workspace');
  for (let d = 0; d < 300; d++) {
    await mkdir(path.join(root, `d${d}`, 'sub'), { recursive: true });
    await writeFile(path.join(root, `d${d}`, 'f.txt'), `${d}\n`);
  }
  await writeFile(path.join(root, 'one.txt'), 'one\n');
  await writeFile(path.join(root, 'two.txt'), 'two\n');
  const rules = { roots: [{ real: root, engineData: [] }], exclude: [] };
  const watcher = fsTreeWatcher({
    roots: [root],
    skip: () => false,
    barrierDir: path.join(base, 'barrier'),
    log: () => undefined,
    rules,
  })!;
  try {
    await watcher.take();
    const seconds = ctx.config.quick ? 8 : 20;
    const storm = spawn('python3', ['-c', swapStorm(seconds)], { cwd: root, stdio: 'ignore' });
    let storming = true;
    const ended = new Promise((resolve) => storm.on('exit', resolve)).then(() => (storming = false));
    const cpuAtStart = loopCpuMs();
    const lags: number[] = [];
    let takes = 0;
    while (storming) {
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      lags.push(performance.now() - started - 20);
      await watcher.take();
      takes++;
    }
    const cpu = loopCpuMs() - cpuAtStart;
    await ended;
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.storm.loopLag',
      "the service loop's timer lag, storm and barriers in one workspace",
      'turnback',
      'ms',
      summarize(lags),
    );
    ctx.results.note(
      WATCHER_SECTION,
      `the watcher alone under the storm, a barrier every 20 ms (${takes} barriers): the service's loop ran ${cpu} ms of CPU ` +
        `(${(cpu / takes).toFixed(2)} ms a barrier), its timer lag p99 ${quantile(lags, 0.99).toFixed(1)} ms`,
    );
  } finally {
    await watcher.close();
    await removeTree(base);
  }
}

/**
 * A git repository at `workspace` with two commits, `small` (top.txt) and `big` (top.txt and
 * `files` files in big/d<n>/, a hundred a folder), checked out at `small`.
 */
async function checkoutRepo(workspace: string, files: number): Promise<{ small: string; big: string }> {
  await mkdir(workspace, { recursive: true });
  git(workspace, 'init', '-q');
  await writeFile(path.join(workspace, 'top.txt'), 'top\n');
  git(workspace, 'add', 'top.txt');
  git(workspace, 'commit', '-qm', 'small');
  const small = git(workspace, 'rev-parse', 'HEAD');
  for (let d = 0; d < files / 100; d++) {
    const dir = path.join(workspace, 'big', `d${d}`);
    await mkdir(dir, { recursive: true });
    for (let f = 0; f < 100; f++) await writeFile(path.join(dir, `f${f}.txt`), `${d}/${f}\n`);
  }
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-qm', 'big');
  const big = git(workspace, 'rev-parse', 'HEAD');
  git(workspace, 'read-tree', '-m', '-u', big, small);
  return { small, big };
}

async function largeCheckout(ctx: BenchContext): Promise<void> {
  const base = ctx.path('watcher-checkout');
  const files = ctx.config.quick ? 10_000 : 100_000;
  const workspace = path.join(base, 'workspace');
  const { small, big } = await checkoutRepo(workspace, files);
  const lines: string[] = [];
  const engine = await watchedEngine(ctx, workspace, path.join(base, 'data'), lines);
  try {
    await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'checkout' });
    const { execId } = await engine.exec({ sessionId: SESSION, tool: 'Bash', command: 'git checkout big' });
    const checkoutStarted = performance.now();
    git(workspace, 'read-tree', '-m', '-u', small, big);
    const checkoutMs = performance.now() - checkoutStarted;
    const started = performance.now();
    const { changed } = await engine.execEnd({ sessionId: SESSION, execId: execId! });
    const ms = performance.now() - started;
    await engine.turnEnd({ sessionId: SESSION });
    const filesListed = changed.filter((uri) => uri.endsWith('.txt')).length;
    const exact = filesListed === files && changed.length === files + files / 100 + 1;
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.checkout.execEnd',
      `exec-end of a ${files.toLocaleString('en-US')}-file checkout`,
      'turnback',
      'ms',
      ms,
    );
    ctx.results.note(
      WATCHER_SECTION,
      `${files.toLocaleString('en-US')}-file checkout (git read-tree -m -u, ${(checkoutMs / 1000).toFixed(1)} s) in the watched workspace: ` +
        `exec-end ${(ms / 1000).toFixed(2)} s, ${exact ? 'exact' : 'NOT exact'} (${filesListed} files, ${changed.length} paths listed), ` +
        `${engine.watcherStatus().misses ?? 0} watcher misses`,
    );
  } finally {
    await engine.close();
    await removeTree(base);
  }
}

/**
 * The same checkout as an agent's command through the service (PreToolUse Bash, git read-tree,
 * PostToolUse) in workspace alpha, while the clients poll health and run hook turns in beta from
 * before the checkout to its exec-end's answer.
 */
export async function checkoutLatency(ctx: BenchContext): Promise<void> {
  const base = ctx.path('watcher-checkout-service');
  const files = ctx.config.quick ? 10_000 : 100_000;
  const repo = (name: string) => path.join(base, 'home', name);
  const { small, big } = await checkoutRepo(repo('alpha'), files);
  await mkdir(path.join(repo('beta'), '.git'), { recursive: true });
  await writeFile(path.join(repo('beta'), 'app.txt'), 'beta\n');
  const service = await startBenchService(base, ['alpha', 'beta']);
  try {
    const cwd = repo('alpha');
    const session = SESSIONS.alpha!;
    const pre = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: `git read-tree -m -u ${small} ${big}` },
      tool_use_id: 'toolu_bench_checkout',
    };
    const clients = startClients(service, { beta: repo('beta'), alpha: null }, Date.now() + 600_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await service.hook({ hook_event_name: 'UserPromptSubmit', prompt: 'checkout big' }, cwd, session);
    await service.hook(pre, cwd, session);
    const checkoutStarted = performance.now();
    await gitAsync('git', ['read-tree', '-m', '-u', small, big], gitOptions(cwd));
    const checkoutMs = performance.now() - checkoutStarted;
    const profiler = await cpuProfilerFromEnv(1_000);
    await profiler?.start();
    const started = performance.now();
    await service.hook(
      { ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '', interrupted: false } },
      cwd,
      session,
    );
    const ms = performance.now() - started;
    await profiler?.stop('.checkout.cpuprofile');
    clients.stop();
    const { health, hooks } = await clients.samples;
    await service.hook({ hook_event_name: 'Stop', stop_hook_active: false }, cwd, session);
    const id = service.host.list().find((workspace) => workspace.name === 'alpha')!.id;
    const engine = await service.host.engine(id);
    const sessionId = engine.listSessions().find((s) => s.sessionId.includes(session))!.sessionId;
    const step = engine
      .listTurns(sessionId)
      .flatMap((turn) => engine.steps(turn.turnId))
      .find((candidate) => candidate.title.includes('read-tree'));
    const listed = new Set((step?.paths ?? []).map((uri) => uri.slice(uri.indexOf(':/') + 2)));
    const expected = git(cwd, 'diff', '--name-only', '--no-renames', small, big).split('\n').filter(Boolean);
    const lacking = expected.filter((rel) => !listed.has(rel)).length;
    const filesListed = [...listed].filter((rel) => rel.endsWith('.txt')).length;
    const exact = lacking === 0 && filesListed === expected.length;
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.checkout.service.health',
      `GET /api/health during a ${files.toLocaleString('en-US')}-file checkout in another workspace`,
      'turnback',
      'ms',
      summarize(health),
    );
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.checkout.service.hook',
      'a hook round trip in another workspace during the checkout',
      'turnback',
      'ms',
      summarize(hooks),
    );
    ctx.results.figure(
      WATCHER_SECTION,
      'watcher.checkout.service.execEnd',
      `PostToolUse (exec-end) of a ${files.toLocaleString('en-US')}-file checkout through the service`,
      'turnback',
      'ms',
      ms,
    );
    ctx.results.note(
      WATCHER_SECTION,
      `${files.toLocaleString('en-US')}-file checkout as an agent's Bash command through the service (git read-tree -m -u, ${(checkoutMs / 1000).toFixed(1)} s) ` +
        `while the clients ran in the other workspace: health p99 ${quantile(health, 0.99).toFixed(1)} ms (target ≤ 100) over ${health.length}, ` +
        `hook p99 ${quantile(hooks, 0.99).toFixed(1)} ms (target ≤ 300) over ${hooks.length}, ` +
        `the slowest health ${Math.max(...health).toFixed(0)} ms and hook ${Math.max(...hooks).toFixed(0)} ms; ` +
        `its exec-end ${(ms / 1000).toFixed(2)} s, ${exact ? 'exact' : 'NOT exact'} (${filesListed} of ${expected.length} files listed, ${lacking} lacking), ` +
        `${engine.watcherStatus().misses ?? 0} watcher misses`,
    );
  } finally {
    await service.close();
    await removeTree(base);
  }
}
