// Measures what the hook costs Claude Code: wall time of `node bin/turnback.js hook
// claude-code` (the compiled entry, as installed by `turnback init`), one process per call,
// against a real `turnback serve` on a temp workspace. Needs `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export interface HookLatency {
  calls: number;
  /** Milliseconds. */
  median: number;
  p95: number;
  min: number;
  max: number;
  /**
   * Median of a bare `node -e ""` measured between the hook calls: the part of the latency
   * that is Node starting, whatever turnback does (and a gauge of how loaded the machine is).
   */
  nodeStartupMedian: number;
}

const defaultBin = resolve(fileURLToPath(import.meta.url), '..', '..', '..', 'bin', 'turnback.js');

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}

function timeProcess(args: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', fail);
    child.on('close', () => done(performance.now() - started));
    child.stdin.end(stdin);
  });
}

const runOnce = (bin: string, env: NodeJS.ProcessEnv, payload: unknown) =>
  timeProcess([bin, 'hook', 'claude-code'], env, JSON.stringify(payload));

async function startServe(bin: string, workspace: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--workspace', workspace, '--data', dataDir, '--port', '0'], {
    env, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) ready();
    });
    child.on('exit', (code) => fail(new Error(`turnback serve exited with ${code}`)));
  });
  // The registry file is what the hook looks for; it is written around the first line.
  const registry = join(env.XDG_STATE_HOME!, 'turnback', 'servers');
  for (let i = 0; i < 100 && !(existsSync(registry) && readdirSync(registry).length > 0); i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return child;
}

export async function measureHookLatency(options: { calls?: number; bin?: string } = {}): Promise<HookLatency> {
  const calls = options.calls ?? 100;
  const bin = options.bin ?? defaultBin;
  const root = mkdtempSync(join(tmpdir(), 'turnback-hook-latency-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const env = { ...process.env, XDG_STATE_HOME: join(root, 'state') };
  const server = await startServe(bin, workspace, join(root, 'data'), env);
  try {
    const common = { session_id: 'latency-1', transcript_path: join(root, 'none.jsonl'), cwd: workspace };
    await runOnce(bin, env, { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'measure the hook' });
    const times: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < calls; i++) {
      // The commonest event of a turn: a file about to be written.
      const payload = {
        ...common, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: `toolu_${i}`,
        tool_input: { file_path: join(workspace, `file-${i % 20}.ts`), content: 'export {};\n' },
      };
      times.push(await runOnce(bin, env, payload));
      baseline.push(await timeProcess(['-e', ''], env, ''));
    }
    await runOnce(bin, env, { ...common, hook_event_name: 'Stop', stop_hook_active: false });
    const sorted = [...times].sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      calls,
      median: round(percentile(sorted, 0.5)),
      p95: round(percentile(sorted, 0.95)),
      min: round(sorted[0]),
      max: round(sorted[sorted.length - 1]),
      nodeStartupMedian: round(percentile([...baseline].sort((a, b) => a - b), 0.5)),
    };
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  }
}
