// One hook invocation: parse the event, find its server, forward it. Never throws; every
// problem worth knowing about becomes one line in hook.log.
import { callsFor } from './calls.js';
import { postAgent } from './client.js';
import { parseHookEvent } from './event.js';
import { logHookProblem } from './log.js';
import { findServerFor, readLiveServers } from './registry.js';

export const HOOK_TIMEOUT_MS = 2000;

export type HookOutcome =
  | 'forwarded'
  | 'ignored'
  | 'malformed'
  | 'no-server'
  | 'outside-workspace'
  | 'server-error'
  | 'unreachable';

export async function runClaudeCodeHook(
  input: string,
  options: { env?: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<HookOutcome> {
  const env = options.env ?? process.env;
  const parsed = parseHookEvent(input);
  if (!parsed.ok) {
    if (parsed.ignored) return 'ignored';
    logHookProblem(`malformed input: ${parsed.reason}`, env);
    return 'malformed';
  }
  const event = parsed.event;
  const server = findServerFor(event.cwd, readLiveServers(env));
  if (!server) {
    logHookProblem(`no turnback server for ${event.cwd}`, env);
    return 'no-server';
  }
  const plan = callsFor(event, server.workspace);
  if ('skip' in plan) return 'outside-workspace';

  for (const call of plan.calls) {
    try {
      const answer = await postAgent(server, call, options.signal);
      if (answer.status < 200 || answer.status >= 300) {
        logHookProblem(`${call.path} answered ${answer.status}: ${answer.body.slice(0, 300)}`, env);
        return 'server-error';
      }
    } catch (error) {
      const reason = options.signal.aborted ? `gave up after ${HOOK_TIMEOUT_MS} ms` : (error as Error).message;
      logHookProblem(`${call.path} on port ${server.port} failed: ${reason}`, env);
      return 'unreachable';
    }
  }
  return 'forwarded';
}
