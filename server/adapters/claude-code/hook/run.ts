// One hook invocation by the Node entry: check the event, find its server, hand the raw event
// to the server's hook route (which maps it to agent calls). Never throws; every problem worth
// knowing about becomes one line in hook.log.
import { postAgent } from './client.js';
import { CLAUDE_CODE_HOOK_PATH, parseHookEvent } from '../event.js';
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

/** Past this size an event is sent without the new contents it carries (the server needs only the path). */
export const SLIM_ABOVE_BYTES = 4 * 1024 * 1024;
const CONTENT_FIELDS = ['content', 'old_string', 'new_string', 'edits', 'new_source'];

/**
 * A Write of many megabytes must still record the file's original: the request would pass the
 * server's body limit, so the new contents are left out (the path is what turnback captures).
 */
export function forwardable(input: string): string {
  if (Buffer.byteLength(input) <= SLIM_ABOVE_BYTES) return input;
  const event = JSON.parse(input) as { tool_input?: Record<string, unknown> };
  for (const field of CONTENT_FIELDS) if (event.tool_input) delete event.tool_input[field];
  return JSON.stringify(event);
}

/** What the server says it did with a forwarded event; anything unexpected counts as forwarded. */
function answeredOutcome(body: string): HookOutcome {
  try {
    const outcome = (JSON.parse(body) as { outcome?: unknown }).outcome;
    if (outcome === 'ignored' || outcome === 'outside-workspace') return outcome;
  } catch {
    // a 2xx without JSON is still a delivered event
  }
  return 'forwarded';
}

export async function runClaudeCodeHook(
  input: string,
  options: { env?: NodeJS.ProcessEnv; signal: AbortSignal; timeoutMs?: number },
): Promise<HookOutcome> {
  const env = options.env ?? process.env;
  // Checked here too: a malformed event is logged even with no server up, and an event of no
  // use to turnback costs no request.
  const parsed = parseHookEvent(input);
  if (!parsed.ok) {
    if (parsed.ignored) return 'ignored';
    logHookProblem(`malformed input: ${parsed.reason}`, env);
    return 'malformed';
  }
  const server = findServerFor(parsed.event.cwd, readLiveServers(env));
  if (!server) {
    logHookProblem(`no turnback server for ${parsed.event.cwd}`, env);
    return 'no-server';
  }
  try {
    const answer = await postAgent(server, CLAUDE_CODE_HOOK_PATH, forwardable(input), options.signal);
    if (answer.status < 200 || answer.status >= 300) {
      logHookProblem(`${CLAUDE_CODE_HOOK_PATH} answered ${answer.status}: ${answer.body.slice(0, 300)}`, env);
      return 'server-error';
    }
    return answeredOutcome(answer.body);
  } catch (error) {
    const reason = options.signal.aborted ? `gave up after ${options.timeoutMs ?? HOOK_TIMEOUT_MS} ms` : (error as Error).message;
    logHookProblem(`${CLAUDE_CODE_HOOK_PATH} on port ${server.port} failed: ${reason}`, env);
    return 'unreachable';
  }
}
