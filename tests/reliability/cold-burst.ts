// Figures for a burst of cold hooks (issue 37 G4; docs/reliability.md "Cold hook bursts"): N
// Claude Code prompts of N sessions at once through the installed sh hook of the build, no
// service running. Prints, per N: each hook's time (min, median, max), how many prompts were
// recorded (and when the last was), how many went through the spool, services started.
// Run: npm run build && npx tsx tests/reliability/cold-burst.ts [N…] (default 20 100).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const hookBin = path.join(repoRoot, 'bin', 'turnback-hook');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runHook(env: NodeJS.ProcessEnv, event: unknown): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(hookBin, [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', () => resolve({ ms: performance.now() - started, stdout }));
    child.stdin.end(JSON.stringify(event));
  });
}

async function recorded(state: string, sessionIds: string[]): Promise<number> {
  try {
    const { port } = JSON.parse(await readFile(path.join(state, 'service.json'), 'utf8')) as { port: number };
    const token = (await readFile(path.join(state, 'console-token'), 'utf8')).trim();
    let count = 0;
    for (const id of sessionIds) {
      const response = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}/turns`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (response.ok) count += ((await response.json()) as { turns: unknown[] }).turns.length;
    }
    return count;
  } catch {
    return 0;
  }
}

async function burst(n: number): Promise<Record<string, number | string>> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-cold-burst-')));
  const state = path.join(root, 'state', 'turnback');
  const repo = path.join(root, 'home', 'project');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: path.join(root, 'home'),
    XDG_STATE_HOME: path.join(root, 'state'),
    TURNBACK_PORT: '0',
  };
  const sessionIds = Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  const load = loadavg()[0];
  const began = performance.now();
  const hooks = await Promise.all(
    sessionIds.map((session_id, i) =>
      runHook(env, {
        session_id,
        cwd: repo,
        transcript_path: '',
        hook_event_name: 'UserPromptSubmit',
        prompt: `p${i}`,
      }),
    ),
  );
  const hooksDone = performance.now() - began;
  let count = 0;
  for (let i = 0; i < 600 && count < n; i++) {
    count = await recorded(state, sessionIds);
    if (count < n) await pause(200);
  }
  const allIn = performance.now() - began;
  const hookLog = await readFile(path.join(state, 'hook.log'), 'utf8').catch(() => '');
  const serviceLog = await readFile(path.join(state, 'service.log'), 'utf8').catch(() => '');
  const times = hooks.map((hook) => hook.ms).sort((a, b) => a - b);
  const result = {
    hooks: n,
    loadBefore: load.toFixed(1),
    hookMsMin: Math.round(times[0]),
    hookMsMedian: Math.round(times[Math.floor(n / 2)]),
    hookMsMax: Math.round(times[n - 1]),
    allHooksDoneMs: Math.round(hooksDone),
    recorded: count,
    allRecordedMs: Math.round(allIn),
    spooled: hookLog.match(/ spooled /g)?.length ?? 0,
    told: hooks.filter((hook) => hook.stdout.includes('systemMessage')).length,
    servicesStarted: serviceLog.match(/^turnback listening on /gm)?.length ?? 0,
  };
  try {
    const { pid } = JSON.parse(await readFile(path.join(state, 'service.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 400 && existsSync(path.join(state, 'service.json')); i++) await pause(25);
  } catch {
    // no service
  }
  await rm(root, { recursive: true, force: true });
  return result;
}

if (!existsSync(path.join(repoRoot, 'build', 'cli.js'))) {
  process.stderr.write('build/ is missing: run npm run build first\n');
  process.exit(2);
}
const counts = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
for (const n of counts.length > 0 ? counts : [20, 100]) process.stdout.write(`${JSON.stringify(await burst(n))}\n`);
