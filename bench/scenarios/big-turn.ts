// Item 17: a big turn at the speed a person feels. One shell command rewrites 5,000 of a
// 10,000-file project through the real service (agent API, compiled CLI); then what a person
// does next, timed end to end: the console's first sessions list and first diff, `show last`,
// `diff last` (its first byte and its end), `undo --yes`. The baseline is git on a clone of the
// same project with the same change: `git diff` and `git checkout -- .`.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { BenchContext } from '../context.js';
import type { BuiltApp } from './build.js';

export const BIG_TURN_SECTION = '17';
const SESSION = 'big-turn';
const FOLDERS = 50;

function seedProject(dir: string, files: number): string[] {
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const rel = `src/m${i % FOLDERS}/file-${i}.ts`;
    mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), lines(i, false));
    paths.push(rel);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'seed');
  return paths;
}

/** About 1 KiB of code; the command's rewrite changes one line in twenty, as a formatter would. */
function lines(i: number, rewritten: boolean): string {
  return `${Array.from({ length: 30 }, (_, n) => `export const v${i}_${n} = ${rewritten && n % 20 === 3 ? `${n} * 2` : n}; // value ${n}`).join('\n')}\n`;
}

/** Asynchronous, as another process's writes are: the fetch client meanwhile sees an idle connection close. */
async function rewrite(dir: string, paths: string[], count: number): Promise<void> {
  for (let i = 0; i < count; i++) await writeFile(path.join(dir, paths[i]), lines(i, true));
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
}

interface Timed {
  /** ms to the first byte on stdout (null: nothing printed). */
  first: number | null;
  total: number;
  bytes: number;
  code: number | null;
}

/** Runs a program with stdout through a pipe (as `| less` reads it), timed. */
function timed(cwd: string, env: NodeJS.ProcessEnv, command: string, args: string[]): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let first: number | null = null;
    let bytes = 0;
    let stderr = '';
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      first ??= performance.now() - started;
      bytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const total = performance.now() - started;
      if (code !== 0)
        reject(new Error(`${path.basename(command)} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}`));
      else resolve({ first, total, bytes, code });
    });
  });
}

interface Service {
  origin: string;
  token: string;
  agentToken: string;
}

/** The person's service as the CLI starts it, its state (and port 0) in the run's temp dir. */
function serviceOf(stateDir: string): Service {
  const dir = path.join(stateDir, 'turnback');
  const { port } = JSON.parse(readFileSync(path.join(dir, 'service.json'), 'utf8')) as { port: number };
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8').trim();
  return { origin: `http://127.0.0.1:${port}`, token: read('console-token'), agentToken: read('agent-token') };
}

async function call<T>(origin: string, token: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}${route}`, {
    signal: AbortSignal.timeout(600_000),
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function api<T>(origin: string, token: string, route: string, body?: unknown): Promise<T> {
  try {
    return await call<T>(origin, token, route, body);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new Error(`${route}: ${String(error)}${cause ? ` (${String(cause)})` : ''}`, { cause: error });
  }
}

async function timedApi(service: Service, route: string): Promise<[number, unknown]> {
  const started = performance.now();
  const answer = await api(service.origin, service.token, route);
  return [performance.now() - started, answer];
}

export async function bigTurnScenario(ctx: BenchContext, app: BuiltApp): Promise<void> {
  const { results } = ctx;
  const total = ctx.config.quick ? 2_000 : 10_000;
  const changed = total / 2;
  const root = ctx.path('big-turn');
  const workspace = path.join(root, 'home', 'project');
  const stateDir = path.join(root, 'state');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const paths = seedProject(workspace, total);

  // The baseline: git on a clone, the same change.
  const clone = path.join(root, 'clone');
  git(root, 'clone', '-q', workspace, clone);
  await rewrite(clone, paths, changed);
  const gitDiff = await timed(clone, process.env, 'git', ['diff']);
  const gitCheckout = await timed(clone, process.env, 'git', ['checkout', '--', '.']);

  const env = {
    ...process.env,
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: stateDir,
    TURNBACK_PORT: '0',
    TURNBACK_TOKEN: '',
    TURNBACK_AGENT_TOKEN: '',
    NO_COLOR: '1',
  };
  // BIG_TURN_PROFILE=dir: a CPU profile of the service (started by `start`) and of each command, as each exits.
  const profile = process.env.BIG_TURN_PROFILE;
  const cli = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`, app.cli] : [app.cli];
  await timed(workspace, env, process.execPath, [...cli, 'start']);
  try {
    const service = serviceOf(stateDir);
    await api(service.origin, service.token, '/api/workspaces', { path: workspace });
    // A command's before scan waits for the index: the bench times what follows, not the build.
    for (let waited = 0; ; waited++) {
      const { workspaces } = await api<{ workspaces: { index?: { state: string } }[] }>(
        service.origin,
        service.token,
        '/api/workspaces',
      );
      if (workspaces[0]?.index?.state === 'whole') break;
      if (waited > 600) throw new Error('the index of the big-turn project was not whole in 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const agent = (route: string, body: unknown) =>
      api<Record<string, unknown>>(service.origin, service.agentToken, route, body);
    await agent('/api/agent/input', { sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'Format' });
    const { execId } = await agent('/api/agent/exec', {
      sessionId: SESSION,
      tool: 'exec',
      command: 'npx prettier -w src',
    });
    await rewrite(workspace, paths, changed);
    const started = performance.now();
    await agent('/api/agent/exec-end', { sessionId: SESSION, execId });
    await agent('/api/agent/turn-end', { sessionId: SESSION });
    const recordMs = performance.now() - started;

    ctx.log('big turn recorded');
    const [sessionsMs, sessions] = await timedApi(service, '/api/sessions?turns=50');
    const turn = (
      sessions as { firstTurns?: { turns: { turnId: string; fileCount?: number }[] } }
    ).firstTurns?.turns.at(-1);
    if (!turn) throw new Error('the big turn is not in the first sessions list');
    const [manifestMs, manifest] = await timedApi(service, `/api/turns/${turn.turnId}`);
    const first = (manifest as { files: { uri: string }[] }).files[0].uri;
    const [diffMs] = await timedApi(service, `/api/turns/${turn.turnId}/diff?uri=${encodeURIComponent(first)}`);
    ctx.log('console routes timed');
    const show = await timed(workspace, env, process.execPath, [...cli, 'show', 'last']);
    const diff = await timed(workspace, env, process.execPath, [...cli, 'diff', 'last']);
    ctx.log('diff last timed');
    const undo = await timed(workspace, env, process.execPath, [...cli, 'undo', '--yes']);
    const left = git(workspace, 'status', '--porcelain');
    if (left.trim() !== '') throw new Error(`undo --yes left the project unlike its commit: ${left.slice(0, 300)}`);

    const label = `${changed.toLocaleString('en-US')} files of ${total.toLocaleString('en-US')}`;
    const figure = (id: string, text: string, contender: string, ms: number) =>
      results.figure(BIG_TURN_SECTION, `big.${id}`, text, contender, 'ms', ms);
    figure(
      'record',
      `the command recorded: its after scan and the turn's end (exec-end + turn-end; ${label})`,
      'turnback',
      recordMs,
    );
    figure('sessions', 'first sessions list after it (`GET /api/sessions?turns=50`)', 'turnback', sessionsMs);
    figure(
      'console-diff',
      "console's first diff (`GET /api/turns/:id` + one path's diff)",
      'turnback',
      manifestMs + diffMs,
    );
    figure('show', '`turnback show last`', 'turnback', show.total);
    figure('diff.first', '`turnback diff last`: first byte', 'turnback', diff.first ?? diff.total);
    figure('diff', '`turnback diff last`: whole', 'turnback', diff.total);
    figure('git-diff', '`git diff` of the same change', 'git', gitDiff.total);
    figure('undo', '`turnback undo --yes`', 'turnback', undo.total);
    figure('git-checkout', '`git checkout -- .` of the same change', 'git', gitCheckout.total);
    results.ratio(BIG_TURN_SECTION, 'diff last ÷ git diff', 'big.diff', 'big.git-diff');
    results.ratio(BIG_TURN_SECTION, 'undo --yes ÷ git checkout', 'big.undo', 'big.git-checkout');
    results.note(
      BIG_TURN_SECTION,
      `one run; the CLI as a person runs it (a Node process per command, stdout through a pipe); diff last printed ${diff.bytes.toLocaleString('en-US')} bytes, git diff ${gitDiff.bytes.toLocaleString('en-US')}; targets: sessions list and console diff < 1 s, diff last's first byte < 1 s, undo a few seconds`,
    );
  } finally {
    await timed(workspace, env, process.execPath, [...cli, 'stop']);
  }
}
