// The server's side of the Claude Code hook: one raw hook event in, the agent calls it means
// run against the server's own engine. The hook processes only find the server and hand the
// event over, so the mapping lives here alone.
import { isAbsolute } from 'node:path';
import { callsFor, type AgentCall } from './calls.js';
import { parseHookEventValue, type HookEvent } from '../event.js';
import { relativeInsideAnyForm } from '../paths.js';
import { lastAssistantText } from './transcript.js';

export type ReceivedOutcome = 'forwarded' | 'ignored' | 'outside-workspace';

export type ReceiveResult =
  | { ok: true; outcome: ReceivedOutcome }
  | { ok: false; malformed: string };

/** Runs one agent call; the route passes the agent route handlers, so validation is theirs. */
export type AgentCallRunner = (call: AgentCall) => Promise<unknown>;

/** A stop without the reply in the event gets it from the transcript, read here. */
async function withReply(event: HookEvent): Promise<HookEvent> {
  if (event.kind !== 'stop' || event.lastAssistantMessage !== null || event.transcriptPath === null) return event;
  return { ...event, lastAssistantMessage: await lastAssistantText(event.transcriptPath) };
}

export async function receiveHookEvent(raw: unknown, workspace: string, run: AgentCallRunner): Promise<ReceiveResult> {
  const parsed = parseHookEventValue(raw);
  if (!parsed.ok) return parsed.ignored ? { ok: true, outcome: 'ignored' } : { ok: false, malformed: parsed.reason };
  if (!isAbsolute(parsed.event.cwd)) return { ok: false, malformed: 'cwd is not an absolute path' };
  // An agent working elsewhere is not this server's to record (a hook finds servers by prefix).
  if (relativeInsideAnyForm(workspace, parsed.event.cwd) === null) return { ok: true, outcome: 'outside-workspace' };
  const plan = callsFor(await withReply(parsed.event), workspace);
  if ('skip' in plan) return { ok: true, outcome: 'outside-workspace' };
  for (const call of plan.calls) await run(call);
  return { ok: true, outcome: 'forwarded' };
}
