// One hook invocation by the Node entry: check the event, find the person's service (started
// when none runs), hand the raw event to its hook route (which maps it to agent calls and picks
// the session's workspace). Never throws; every problem worth knowing about becomes one line in
// hook.log, and what stops recording is also told to the person once per session and reason
// (the answer's `systemMessage`, printed by the caller for Claude Code).
import { postAgent, type AgentTarget } from './client.js';
import { CLAUDE_CODE_HOOK_PATH, parseHookEvent } from '../event.js';
import { logHookProblem } from './log.js';
import { firstTelling } from './told.js';
import { readLiveService, serviceSocketPath, type ServiceEntry } from '../../../service/service-file.js';
import { ensureService, readStateToken, START_WAIT_MS, type StartFailure } from '../../../service/spawn-service.js';
import { deliveryIdOf, spoolEvent } from '../../../service/spool.js';

export const HOOK_TIMEOUT_MS = 2000;

export type HookOutcome =
  | 'forwarded'
  | 'ignored'
  | 'malformed'
  | 'no-server'
  | 'not-recorded'
  | 'outside-workspace'
  | 'server-error'
  | 'spooled'
  | 'unreachable';

export interface HookResult {
  outcome: HookOutcome;
  /** What the host shows the person (Claude Code: `{"systemMessage": …}` on stdout). */
  systemMessage?: string;
  /** What the host's hook prints on stdout as it is (a prompt's paragraph for the agent, in the host's shape). */
  hookOutput?: Record<string, unknown>;
}
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
function answered(body: string, env: NodeJS.ProcessEnv): HookResult {
  try {
    const answer = JSON.parse(body) as {
      outcome?: unknown;
      ignored?: unknown;
      systemMessage?: unknown;
      hookOutput?: unknown;
    };
    if (answer.outcome === 'ignored' || answer.outcome === 'outside-workspace') return { outcome: answer.outcome };
    if (answer.outcome === 'not-recorded') {
      logHookProblem(`not recorded: ${String(answer.ignored)}`, env);
      return {
        outcome: 'not-recorded',
        ...(typeof answer.systemMessage === 'string' ? { systemMessage: answer.systemMessage } : {}),
      };
    }
    const output = answer.hookOutput;
    if (output !== null && typeof output === 'object' && !Array.isArray(output))
      return { outcome: 'forwarded', hookOutput: output as Record<string, unknown> };
  } catch {
    // a 2xx without JSON is still a delivered event
  }
  return { outcome: 'forwarded' };
}

/** The live service's address and agent token, started first when none runs (or only `stale` does). */
async function serviceTarget(
  env: NodeJS.ProcessEnv,
  deadline: number,
  stale?: ServiceEntry,
): Promise<Target | StartFailure> {
  const live = readLiveService(env);
  const usable = live && !(stale && live.pid === stale.pid && live.port === stale.port) ? live : null;
  const entry =
    usable ??
    (await (async () => {
      const started = await ensureService(env, { waitMs: Math.max(deadline - Date.now(), 0), stale });
      return 'error' in started ? started : started.entry;
    })());
  if ('error' in entry) return entry;
  const agentToken = readStateToken('agentToken', env);
  if (!agentToken) return { error: 'the agent token file of the state dir is missing' };
  return { socketPath: serviceSocketPath(env), agentToken, entry };
}

type Target = AgentTarget & { entry: ServiceEntry };

/** Another host's event, as far as the hook needs it: its session (the server reads the rest). */
function parseOtherHostEvent(
  input: string,
): { ok: true; sessionId: string } | { ok: false; ignored: false; reason: string } {
  let event: unknown;
  try {
    event = JSON.parse(input);
  } catch {
    return { ok: false, ignored: false, reason: 'not JSON' };
  }
  const fields = event !== null && typeof event === 'object' ? (event as Record<string, unknown>) : {};
  const id = ['session_id', 'conversation_id', 'sessionID', 'sessionId']
    .map((key) => fields[key])
    .find((v) => typeof v === 'string' && v !== '');
  return typeof id === 'string' ? { ok: true, sessionId: id } : { ok: false, ignored: false, reason: 'no session id' };
}

/**
 * `host`: whose event this is (default Claude Code, whose events are checked here in full);
 * another host's event goes to `/api/agent/hook/<host>` as it is.
 */
export async function runClaudeCodeHook(
  input: string,
  options: { env?: NodeJS.ProcessEnv; signal: AbortSignal; timeoutMs?: number; host?: string },
): Promise<HookResult> {
  const host = options.host ?? 'claude-code';
  const route = host === 'claude-code' ? CLAUDE_CODE_HOOK_PATH : `/api/agent/hook/${host}`;
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_MS;
  // Checked here too: a malformed event is logged even with no server up, and an event of no
  // use to turnback costs no request.
  const checked = host === 'claude-code' ? parseHookEvent(input) : parseOtherHostEvent(input);
  if (!checked.ok) {
    if (checked.ignored) return { outcome: 'ignored' };
    logHookProblem(`malformed input: ${checked.reason}`, env);
    return { outcome: 'malformed' };
  }
  const sessionId = 'event' in checked ? checked.event.sessionId : checked.sessionId;
  const tell = (outcome: HookOutcome, reason: string): HookResult => {
    logHookProblem(reason, env);
    return firstTelling(sessionId, reason, env)
      ? { outcome, systemMessage: `turnback is not recording this session: ${reason}` }
      : { outcome };
  };
  // A prompt, stop or reply not delivered in time waits in the spool for the service (spool.ts).
  const delivery = deliveryIdOf(input);
  const keep = (outcome: HookOutcome, reason: string, late = true): HookResult => {
    if (delivery === undefined || !late) return tell(outcome, reason);
    if (spoolEvent(env, host, delivery, forwardable(input))) {
      logHookProblem(`spooled (${reason}): the service takes it in when it is up`, env);
      return { outcome: 'spooled' };
    }
    return tell(outcome, `${reason}, and the spool could not keep the event`);
  };
  const path = delivery === undefined ? route : `${route}?delivery=${delivery}`;
  let target = await serviceTarget(env, Date.now() + START_WAIT_MS);
  if ('error' in target) return keep('no-server', target.error, target.late === true);
  for (let attempt = 0; ; attempt++) {
    try {
      const signal = AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]);
      const answer = await postAgent(target, path, forwardable(input), signal);
      if (answer.status < 200 || answer.status >= 300) {
        logHookProblem(`${route} answered ${answer.status}: ${answer.body.slice(0, 300)}`, env);
        return { outcome: 'server-error' };
      }
      return answered(answer.body, env);
    } catch (error) {
      // Nothing listens on the socket although service.json's pid lives (a pid taken by
      // another process), or the service died while it had an event that cannot wait in the
      // spool (a tool's, whose file states are read now): once, start a service and deliver there.
      const code = (error as NodeJS.ErrnoException).code;
      const died = code === 'ECONNRESET' && delivery === undefined;
      if ((code === 'ECONNREFUSED' || code === 'ENOENT' || died) && attempt === 0) {
        const again = await serviceTarget(env, Date.now() + START_WAIT_MS, target.entry);
        if ('error' in again) return keep('no-server', again.error, again.late === true);
        target = again;
        continue;
      }
      const reason =
        options.signal.aborted || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
          ? `gave up after ${timeoutMs} ms`
          : (error as Error).message;
      logHookProblem(`${route} over service.sock failed: ${reason}`, env);
      return delivery === undefined ? { outcome: 'unreachable' } : keep('unreachable', reason);
    }
  }
}
