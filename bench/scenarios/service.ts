// Item 12: the always-on service with the compiled CLI. A cold start: no service running, the
// installed hook (bin/turnback-hook) of a prompt starts it and delivers, then the first Bash's
// before scan; timed from the first hook's start to the second's end, and checked recorded.
// Then the service's resident memory with 20 registered workspaces of which 2 are active.
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext } from '../context.js';
import { summarize } from '../stats.js';
import type { BuiltApp } from './build.js';

export const SERVICE_SECTION = '12';
const MIB = 1024 * 1024;

interface Place {
  root: string;
  env: NodeJS.ProcessEnv;
  state: string;
}

function place(): Place {
  const root = mkdtempSync(join(tmpdir(), 'turnback-bench-service-'));
  mkdirSync(join(root, 'home'));
  const state = join(root, 'state', 'turnback');
  // Port 0: never the machine's 4820.
  return {
    root,
    state,
    env: {
      ...process.env,
      HOME: join(root, 'home'),
      XDG_STATE_HOME: join(root, 'state'),
      TURNBACK_PORT: '0',
      TURNBACK_TOKEN: '',
      TURNBACK_AGENT_TOKEN: '',
    },
  };
}

function project(p: Place, name: string, files = 200): string {
  const dir = join(p.root, 'home', name);
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(join(dir, 'src'));
  for (let i = 0; i < files; i++) writeFileSync(join(dir, 'src', `file-${i}.ts`), `export const value${i} = ${i};\n`);
  return dir;
}

function runHook(bin: string, env: NodeJS.ProcessEnv, payload: unknown): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('/bin/sh', ['-c', `'${join(dirname(bin), 'turnback-hook')}' --max-time 30`], {
      env,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    child.on('error', fail);
    child.on('close', () => done());
    child.stdin.end(JSON.stringify(payload));
  });
}

function service(p: Place): { pid: number; port: number; token: string } {
  const entry = JSON.parse(readFileSync(join(p.state, 'service.json'), 'utf8')) as { pid: number; port: number };
  return { ...entry, token: readFileSync(join(p.state, 'console-token'), 'utf8').trim() };
}

async function api<T>(p: Place, route: string, body?: unknown): Promise<T> {
  const { port, token } = service(p);
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

async function stop(p: Place): Promise<void> {
  let pid: number;
  try {
    ({ pid } = service(p));
  } catch {
    return;
  }
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 800; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const common = (cwd: string, sessionId: string) => ({
  session_id: sessionId,
  transcript_path: '/nonexistent.jsonl',
  cwd,
  permission_mode: 'default',
});

/** One cold start to a recorded first Bash, in ms. */
async function coldStart(app: BuiltApp): Promise<number> {
  const p = place();
  try {
    const dir = project(p, 'cold');
    const sessionId = '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';
    const started = performance.now();
    await runHook(app.cli, p.env, {
      ...common(dir, sessionId),
      hook_event_name: 'UserPromptSubmit',
      prompt: 'cold start',
    });
    await runHook(app.cli, p.env, {
      ...common(dir, sessionId),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: 'toolu_cold',
      tool_input: { command: 'make' },
    });
    const elapsed = performance.now() - started;
    const { turns } = await api<{ turns: { execCommands: unknown[] }[] }>(p, `/api/sessions/${sessionId}/turns`);
    if (turns.length !== 1 || turns[0].execCommands.length !== 1)
      throw new Error(`the cold start did not record the Bash command: ${JSON.stringify(turns).slice(0, 300)}`);
    return elapsed;
  } finally {
    await stop(p);
    rmSync(p.root, { recursive: true, force: true });
  }
}

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(/\d+/.exec(status.split('\n').find((line) => line.startsWith(`${name}:`)) ?? '0')![0]) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** The service's memory with 20 registered workspaces, 2 of them with an active turn. */
async function twentyWorkspaces(app: BuiltApp): Promise<{ rss: number; peak: number }> {
  const p = place();
  try {
    const dirs = Array.from({ length: 20 }, (_, i) => project(p, `project-${i}`, 50));
    await runHook(app.cli, p.env, {
      ...common(dirs[0], '10000000-0000-4000-8000-000000000000'),
      hook_event_name: 'UserPromptSubmit',
      prompt: 'work 0',
    });
    for (const dir of dirs.slice(1)) await api(p, '/api/workspaces', { path: dir });
    await runHook(app.cli, p.env, {
      ...common(dirs[1], '10000000-0000-4000-8000-000000000001'),
      hook_event_name: 'UserPromptSubmit',
      prompt: 'work 1',
    });
    for (const [i, dir] of dirs.slice(0, 2).entries()) {
      await runHook(app.cli, p.env, {
        ...common(dir, `10000000-0000-4000-8000-00000000000${i}`),
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_use_id: `toolu_${i}`,
        tool_input: { command: 'make' },
      });
    }
    // Registering a workspace builds its index in the background (its engine open meanwhile): the
    // figure is taken once every build is done, so it is the service's memory at rest.
    type Listed = { open: boolean; index?: { state: string } };
    let workspaces: Listed[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(200)) {
      ({ workspaces } = await api<{ workspaces: Listed[] }>(p, '/api/workspaces'));
      if (workspaces.length === 20 && workspaces.every((w) => w.index?.state !== 'building')) break;
    }
    if (workspaces.length !== 20 || workspaces.filter((w) => w.open).length < 2)
      throw new Error(`expected 20 workspaces, 2 or more open: ${JSON.stringify(workspaces).slice(0, 300)}`);
    return rssOf(service(p).pid);
  } finally {
    await stop(p);
    rmSync(p.root, { recursive: true, force: true });
  }
}

export async function serviceScenario(ctx: BenchContext, app: BuiltApp): Promise<void> {
  const { results } = ctx;
  const colds: number[] = [];
  for (let i = 0; i < ctx.config.runs; i++) colds.push(await coldStart(app));
  results.figure(
    SERVICE_SECTION,
    'service.cold-start',
    'cold start: no service, a prompt and a first Bash (before scan of 200 files) recorded through the installed hook',
    'turnback',
    'ms',
    summarize(colds),
  );
  const memory = await twentyWorkspaces(app);
  results.figure(
    SERVICE_SECTION,
    'service.rss-20',
    'service RSS with 20 registered workspaces, 2 with an active turn',
    'turnback',
    'bytes',
    memory.rss,
  );
  results.figure(
    SERVICE_SECTION,
    'service.rss-20.peak',
    'service peak RSS (VmHWM) in the same run',
    'turnback',
    'bytes',
    memory.peak,
  );
  results.note(
    SERVICE_SECTION,
    `targets: cold start to the first recorded event ≤ 1,500 ms; RSS with 20 workspaces of which 2 active ≤ 150 MiB (measured ${(memory.rss / MIB).toFixed(1)} MiB)`,
  );
}
