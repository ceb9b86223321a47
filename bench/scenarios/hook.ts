// Item 8: what the Claude Code hook costs per tool call — one `turnback hook claude-code`
// process per call against a running server, as Claude Code runs it.
import type { BenchContext } from '../context.js';

export const HOOK_SECTION = '8';

export async function hookScenario(ctx: BenchContext): Promise<void> {
  const { measureHookLatency } = await import('../../server/hook/latency.js');
  const latency = await measureHookLatency({ calls: ctx.config.hookCalls });
  const { results } = ctx;
  results.figure(HOOK_SECTION, 'hook.median', `hook claude-code, PreToolUse Write (${latency.calls} calls): median`, 'turnback', 'ms', latency.median);
  results.figure(HOOK_SECTION, 'hook.p95', `hook claude-code, PreToolUse Write (${latency.calls} calls): p95`, 'turnback', 'ms', latency.p95);
  results.note(HOOK_SECTION, `min ${latency.min} ms, max ${latency.max} ms; a process spawn per call, server up`);
}
