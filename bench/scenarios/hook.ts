// Item 8: what the Claude Code hook costs per tool call — one hook process per call, as Claude
// Code runs it: the installed entry (bin/turnback-hook, sh + curl) with the service up, and,
// for comparison, the Node entry with the bare Node startup it cannot go below. (With no
// service up the hook starts one: item 12.)
import type { BenchContext } from '../context.js';
import type { BuiltApp } from './build.js';

export const HOOK_SECTION = '8';

export async function hookScenario(ctx: BenchContext, app: BuiltApp): Promise<void> {
  const { measureHookLatency } = await import('../../server/adapters/claude-code/test/latency.js');
  const latency = await measureHookLatency({ calls: ctx.config.hookCalls, bin: app.cli });
  const { results } = ctx;
  const figures = (
    id: string,
    label: string,
    entry: { calls: number; median: number; p95: number; min: number; max: number },
  ) => {
    results.figure(HOOK_SECTION, `${id}.median`, label, 'turnback', 'ms', {
      median: entry.median,
      min: entry.min,
      max: entry.max,
      p95: entry.p95,
      runs: entry.calls,
      samples: [],
    });
    results.figure(HOOK_SECTION, `${id}.p95`, `${label}: p95`, 'turnback', 'ms', {
      median: entry.p95,
      min: entry.p95,
      max: entry.p95,
      p95: entry.p95,
      runs: entry.calls,
      samples: [],
    });
  };
  figures(
    'hook',
    `hook per call, installed entry bin/turnback-hook (PreToolUse Write, ${latency.calls} calls)`,
    latency,
  );
  figures(
    'hook.node-entry',
    `hook per call, Node entry \`turnback hook claude-code\` (PreToolUse Write, ${latency.nodeEntry.calls} calls)`,
    latency.nodeEntry,
  );
  if (typeof latency.nodeStartupMedian === 'number') {
    results.figure(
      HOOK_SECTION,
      'hook.node',
      'bare `node -e ""` between the calls (Node entry floor): median',
      null,
      'ms',
      latency.nodeStartupMedian,
    );
  }
  results.note(
    HOOK_SECTION,
    'one hook process per call: the installed command run through `sh -c` as Claude Code runs it (sh + curl, Node fallback) with the service up (target median < 30 ms), and `node bin/turnback.js hook claude-code` with the server up',
  );
}
