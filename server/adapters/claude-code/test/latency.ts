// Measures what the hook costs Claude Code per call, one process per call against a real
// `turnback serve` on a temp workspace: the installed entry (bin/turnback-hook, run through
// `sh -c` with the command `turnback init` writes, as Claude Code runs it) and, for
// comparison, the Node entry `node bin/turnback.js hook claude-code`, with a bare
// `node -e ""` between the calls as the floor any Node entry pays. (With no service running a
// hook starts one: bench item 12 measures that cold start.) Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../settings.js';
import { startServe, stopServe, type Serve } from '../../../testkit/serve.js';

export interface EntryLatency {
  calls: number;
  /** Milliseconds. */
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** The top-level figures are the installed entry's. */
export interface HookLatency extends EntryLatency {
  /** The command measured as the installed entry (what `turnback init` writes). */
  installedCommand: string;
  nodeEntry: EntryLatency;
  /**
   * Median of a bare `node -e ""` measured between the hook calls: the part of the Node
   * entry's latency that is Node starting, whatever turnback does (and a gauge of how loaded
   * the machine is).
   */
  nodeStartupMedian: number;
}

const defaultBin = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..', '..', 'bin', 'turnback.js');

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function summarize(times: number[]): EntryLatency {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    calls: times.length,
    median: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}

function timeProcess(command: string, args: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', fail);
    child.on('close', () => done(performance.now() - started));
    child.stdin.end(stdin);
  });
}

/**
 * A fast figure from a hook that failed fast would be worthless: the turn must hold an entry
 * for every call of both entries, and nothing may have been logged. (Checked while the turn
 * is active: files that did not change are dropped when it commits.)
 */
async function checkRecorded(
  serve: Serve,
  sessionId: string,
  expectedEntries: number,
  stateHome: string,
): Promise<void> {
  const log = join(stateHome, 'turnback', 'hook.log');
  if (existsSync(log)) throw new Error(`the hook logged problems: ${readFileSync(log, 'utf8').slice(0, 500)}`);
  const get = async (path: string) =>
    (await fetch(`${serve.origin}${path}`, { headers: { Authorization: `Bearer ${serve.token}` } })).json();
  const { turns } = (await get(`/api/sessions/${sessionId}/turns`)) as { turns: { turnId: string; status: string }[] };
  const manifest = (await get(`/api/turns/${turns[0]?.turnId}`)) as { entries?: unknown[] };
  if (turns.length !== 1 || turns[0].status !== 'active' || manifest.entries?.length !== expectedEntries) {
    throw new Error(`the hook did not record what it was sent (${JSON.stringify(manifest).slice(0, 300)})`);
  }
}

export async function measureHookLatency(options: { calls?: number; bin?: string } = {}): Promise<HookLatency> {
  const calls = options.calls ?? 100;
  const bin = options.bin ?? defaultBin;
  const installedCommand = shellQuote(join(dirname(bin), 'turnback-hook'));
  const root = mkdtempSync(join(tmpdir(), 'turnback-hook-latency-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const stateHome = join(root, 'state');
  // Port 0: a hook that had to start a service must never take the machine's 4820.
  const env = { ...process.env, XDG_STATE_HOME: stateHome, TURNBACK_PORT: '0' };
  const serve = await startServe(bin, workspace, join(root, 'data'), env);
  const sessionId = 'latency-1';
  const files = Math.min(20, calls);
  try {
    const common = { session_id: sessionId, transcript_path: join(root, 'none.jsonl'), cwd: workspace };
    const installed = (payload: unknown) =>
      timeProcess('/bin/sh', ['-c', installedCommand], env, JSON.stringify(payload));
    const nodeEntry = (payload: unknown) =>
      timeProcess(process.execPath, [bin, 'hook', 'claude-code'], env, JSON.stringify(payload));
    await installed({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'measure the hook' });
    const times = { installed: [] as number[], node: [] as number[], bare: [] as number[] };
    // The commonest event of a turn: a file about to be written.
    const payload = (n: number) => ({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_use_id: `toolu_${n}`,
      tool_input: { file_path: join(workspace, `file-${n % files}.ts`), content: 'export {};\n' },
    });
    for (let i = 0; i < calls; i++) {
      times.installed.push(await installed(payload(2 * i)));
      times.node.push(await nodeEntry(payload(2 * i + 1)));
      times.bare.push(await timeProcess(process.execPath, ['-e', ''], env, ''));
    }
    await checkRecorded(serve, sessionId, 2 * calls, stateHome);
    await installed({ ...common, hook_event_name: 'Stop', stop_hook_active: false });
    return {
      ...summarize(times.installed),
      installedCommand,
      nodeEntry: summarize(times.node),
      nodeStartupMedian: summarize(times.bare).median,
    };
  } finally {
    await stopServe(serve);
    rmSync(root, { recursive: true, force: true });
  }
}
