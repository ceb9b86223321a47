// Item 8: what the Claude Code hook costs per tool call — one `turnback hook claude-code`
// process per call against a running server, as Claude Code runs it.
import type { BenchContext } from '../context.js';
import type { BuiltApp } from './build.js';

export const HOOK_SECTION = '8';

export async function hookScenario(ctx: BenchContext, app: BuiltApp): Promise<void> {
  const { measureHookLatency } = await import('../../server/hook/latency.js');
  const latency = await measureHookLatency({ calls: ctx.config.hookCalls, bin: app.cli });
  const { results } = ctx;
  const label = `hook claude-code per call (PreToolUse Write, ${latency.calls} calls)`;
  results.figure(HOOK_SECTION, 'hook.median', label, 'turnback', 'ms',
    { median: latency.median, min: latency.min, max: latency.max, p95: latency.p95, runs: latency.calls, samples: [] });
  results.figure(HOOK_SECTION, 'hook.p95', `${label}: p95`, 'turnback', 'ms',
    { median: latency.p95, min: latency.p95, max: latency.p95, p95: latency.p95, runs: latency.calls, samples: [] });
  if (typeof latency.nodeStartupMedian === 'number') {
    results.figure(HOOK_SECTION, 'hook.node', 'bare `node -e ""` between the calls (startup floor): median', null, 'ms', latency.nodeStartupMedian);
  }
  results.note(HOOK_SECTION, 'one `node bin/turnback.js hook claude-code` process per call, as Claude Code runs it, server up');
}
