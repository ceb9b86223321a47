// An Antigravity CLI (`agy`) hook event, the JSON agy writes on a hook's stdin, as a host-neutral
// one (core/host.ts). agy is not in the npm registry: built from its documented and captured
// payloads (Entire's captures of agy 1.0.x, test/payloads.ts), not from a run. Every payload
// carries conversationId, workspacePaths, transcriptPath and artifactDirectoryPath, and no event
// name: of the events `init antigravity` registers, each is told by its own fields:
// - PreToolUse `{toolCall: {name, args}, stepIdx}`: args may come double-encoded
//   (`"TargetFile": "\"a.txt\""`);
// - PostToolUse `{stepIdx, error?}` (no tool name): linked to its PreToolUse by stepIdx;
// - PreInvocation `{invocationNum, initialNumSteps}`, before every model call (0 = the prompt's
//   first): no prompt text (agy writes its transcript after Stop);
// - Stop `{executionNum, terminationReason, fullyIdle}`: the turn is over when fullyIdle.
// PostInvocation has PreInvocation's very shape and no use here, so it is not registered.
import { isAbsolute } from 'node:path';
import type { HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';

export const ANTIGRAVITY_HOST = 'antigravity';

/** The events `init antigravity` registers (settings.ts). */
export const ANTIGRAVITY_EVENTS = ['PreInvocation', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
/** Of those, the ones a tool waits on: its before scan must be done before it runs. */
export const ANTIGRAVITY_SCAN_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse']);
/** What a turn is titled: agy's hooks carry no prompt text. */
export const ANTIGRAVITY_PROMPT = '(a prompt to Antigravity: its hooks do not carry the text)';

const SHELL_TOOL = 'run_command';
/** agy's tools that change one file, named by `TargetFile`. */
const FILE_TOOLS: ReadonlySet<string> = new Set([
  'write_to_file',
  'replace_file_content',
  'multi_replace_file_content',
]);
/** Tools that change nothing in the workspace: their calls are not scanned. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'view_file',
  'view_file_outline',
  'view_code_item',
  'view_content_chunk',
  'list_dir',
  'grep_search',
  'find_by_name',
  'codebase_search',
  'read_url_content',
  'search_web',
  'command_status',
  'read_terminal',
]);
const COMMAND_LIMIT = 4000;

type Json = Record<string, unknown>;
type AgyEvent = (typeof ANTIGRAVITY_EVENTS)[number];
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });

/** Which registered event a payload is, by its own fields; null: none of them. */
export function eventNameOf(raw: Json): AgyEvent | null {
  if (isObject(raw.toolCall)) return 'PreToolUse';
  if (typeof raw.invocationNum === 'number') return 'PreInvocation';
  if (typeof raw.fullyIdle === 'boolean' || typeof raw.terminationReason === 'string') return 'Stop';
  if (typeof raw.stepIdx === 'number') return 'PostToolUse';
  return null;
}

/** A value agy sent JSON-encoded once more (`"\"a.txt\""`, `"true"`) as its value. */
function decoded(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}

/** A tool call's args as an object, each string value decoded once where agy double-encoded it. */
export function argsOf(value: unknown): Json {
  const args =
    typeof value === 'string'
      ? (() => {
          try {
            return JSON.parse(value) as unknown;
          } catch {
            return null;
          }
        })()
      : value;
  if (!isObject(args)) return {};
  return Object.fromEntries(Object.entries(args).map(([key, field]) => [key, decoded(field)]));
}

/** A tool call's step, which its PreToolUse and PostToolUse share. */
export const callIdOf = (stepIdx: number): string => `agy-step:${stepIdx}`;

function preToolUse(raw: Json, base: HostEventBase): ParsedHostEvent {
  const call = raw.toolCall as Json;
  const tool = typeof call.name === 'string' && call.name !== '' ? call.name : null;
  if (tool === null) return malformed('PreToolUse without toolCall.name');
  if (READ_ONLY_TOOLS.has(tool)) return ignored(`${tool} changes no file`);
  if (typeof raw.stepIdx !== 'number') return malformed('PreToolUse without stepIdx');
  const args = argsOf(call.args);
  const callId = callIdOf(raw.stepIdx);
  if (FILE_TOOLS.has(tool)) {
    const path = typeof args.TargetFile === 'string' && args.TargetFile !== '' ? args.TargetFile : null;
    if (path === null) return malformed(`PreToolUse ${tool} names no TargetFile`);
    return { ok: true, event: { ...base, kind: 'before-mutate', tool, paths: [path], callId } };
  }
  const command =
    tool === SHELL_TOOL && typeof args.CommandLine === 'string' ? args.CommandLine : `${tool} ${JSON.stringify(args)}`;
  return {
    ok: true,
    event: { ...base, kind: 'exec', tool, command: cutText(command, COMMAND_LIMIT), callId, background: false },
  };
}

export function parseAntigravityEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('the event is not a JSON object');
  const sessionId = typeof raw.conversationId === 'string' && raw.conversationId !== '' ? raw.conversationId : null;
  if (sessionId === null) return malformed('no conversationId');
  const roots = Array.isArray(raw.workspacePaths)
    ? raw.workspacePaths.filter((root): root is string => typeof root === 'string' && isAbsolute(root))
    : [];
  // `agy -p` without --add-dir works in a scratch folder of its own and names no workspace.
  if (roots.length === 0) return malformed('no absolute workspacePaths');
  const name = eventNameOf(raw);
  if (name === null) return malformed('not an event turnback registers for Antigravity');
  const transcriptPath = typeof raw.transcriptPath === 'string' ? raw.transcriptPath : null;
  const base: HostEventBase = { sessionId, cwd: roots[0], transcriptPath, agentId: null };
  switch (name) {
    case 'PreInvocation':
      return raw.invocationNum === 0
        ? { ok: true, event: { ...base, kind: 'prompt', prompt: ANTIGRAVITY_PROMPT } }
        : ignored('a later model call of the same prompt');
    case 'PreToolUse':
      return preToolUse(raw, base);
    case 'PostToolUse':
      return { ok: true, event: { ...base, kind: 'exec-end', tool: 'agy', callId: callIdOf(raw.stepIdx as number) } };
    case 'Stop':
      return raw.fullyIdle === false
        ? ignored('stopped with background work still running: the turn goes on')
        : { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null } };
  }
}
