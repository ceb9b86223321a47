// A GitHub Copilot CLI hook event (the JSON Copilot writes on a command hook's stdin) as a
// host-neutral one (core/host.ts). Facts of Copilot CLI 1.0.102, each asserted by event.test.ts
// on payloads recorded from it and by the real-CLI suite (tests/hosts/copilot):
// - hooks registered under camelCase event names get camelCase payloads with no event name in
//   them: `{sessionId, timestamp, cwd, …}` plus the event's own fields, so the event is told by
//   those fields (eventNameOf);
// - a tool's preToolUse and postToolUse (or postToolUseFailure) carry `toolName` and the same
//   `toolArgs` object, and no call id: the two are linked by a hash of both;
// - the shell tool is `bash` (`toolArgs.command`); files are changed by `create` and `edit`
//   (`toolArgs.path`, absolute); an MCP tool is `<server>-<tool>`; a tool that does not exist
//   still gets preToolUse and postToolUseFailure;
// - agentStop carries `transcriptPath` (`~/.copilot/session-state/<id>/events.jsonl`) but not
//   the reply; sessionEnd ends a `copilot -p` run.
import { createHash } from 'node:crypto';
import type { HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';

export const COPILOT_HOST = 'copilot';

/** The events `init copilot` registers (settings.ts), each one this parser maps. */
export const COPILOT_EVENTS = [
  'userPromptSubmitted',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'agentStop',
  'sessionEnd',
  'errorOccurred',
] as const;
export type CopilotEvent = (typeof COPILOT_EVENTS)[number] | 'sessionStart' | 'subagentStop';
/** Of those, the ones a tool waits on: its before scan must be done before it runs. */
export const COPILOT_SCAN_EVENTS: ReadonlySet<string> = new Set(['preToolUse', 'postToolUse', 'postToolUseFailure']);

export const SHELL_TOOL = 'bash';
/** Copilot's tools that change one file, named by `toolArgs.path`. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['create', 'edit']);
/** Tools that change nothing in the workspace: their calls are not scanned. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'view',
  'grep',
  'glob',
  'read_bash',
  'list_bash',
  'read_agent',
  'list_agents',
  'fetch_copilot_cli_documentation',
  'skill',
  'sql',
  'session_store_sql',
  'ask_user',
  'web_fetch',
  'report_intent',
]);
/** The sub-agent tool: scanned around as a whole, its own calls run inside it. */
const TASK_TOOL = 'task';
const COMMAND_LIMIT = 4000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });

/** Which camelCase event a payload is, by the fields only it carries; null: none of Copilot's. */
export function eventNameOf(raw: Json): CopilotEvent | null {
  if (typeof raw.toolName === 'string') {
    if (raw.toolResult !== undefined) return 'postToolUse';
    if (typeof raw.error === 'string') return 'postToolUseFailure';
    return 'preToolUse';
  }
  if (typeof raw.prompt === 'string') return 'userPromptSubmitted';
  if (raw.stopReason !== undefined) return raw.agentName !== undefined ? 'subagentStop' : 'agentStop';
  if (raw.errorContext !== undefined) return 'errorOccurred';
  if (typeof raw.reason === 'string') return 'sessionEnd';
  if (typeof raw.source === 'string') return 'sessionStart';
  return null;
}

/** `toolArgs` as an object: documented as unknown, a JSON string when Copilot could not parse it. */
export function argsOf(value: unknown): Json {
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isObject(parsed)) return parsed;
    } catch {
      // Kept as text below.
    }
    return { text: value };
  }
  return {};
}

/** Links a tool call's pre and post events (and its transcript item): neither carries a call id. */
export const callIdOf = (tool: string, args: Json): string =>
  `copilot:${createHash('sha256')
    .update(JSON.stringify([tool, args]))
    .digest('hex')
    .slice(0, 24)}`;

function commandOf(tool: string, args: Json): string {
  const shown =
    tool === SHELL_TOOL && typeof args.command === 'string' ? args.command : `${tool} ${JSON.stringify(args)}`;
  return cutText(shown, COMMAND_LIMIT);
}

function toolEvent(name: CopilotEvent, raw: Json, base: HostEventBase): ParsedHostEvent {
  const tool = nonEmpty(raw.toolName);
  if (tool === null) return malformed(`${name} without toolName`);
  if (READ_ONLY_TOOLS.has(tool)) return ignored(`${tool} changes no file`);
  const args = argsOf(raw.toolArgs);
  const callId = callIdOf(tool, args);
  if (FILE_TOOLS.has(tool)) {
    if (name !== 'preToolUse') return ignored(`${tool}'s file was recorded before it ran`);
    const path = nonEmpty(args.path);
    if (path === null) return malformed(`preToolUse ${tool} names no path`);
    return { ok: true, event: { ...base, kind: 'before-mutate', tool, paths: [path], callId } };
  }
  if (name !== 'preToolUse') return { ok: true, event: { ...base, kind: 'exec-end', tool, callId } };
  return {
    ok: true,
    event: {
      ...base,
      kind: 'exec',
      tool,
      command: commandOf(tool, args),
      callId,
      // A shell started with `mode: "async"` goes on after its postToolUse: the turn's end scans it.
      background: tool === SHELL_TOOL && args.mode === 'async',
      ...(tool === TASK_TOOL ? { nests: true } : {}),
    },
  };
}

export function parseCopilotEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('the event is not a JSON object');
  const sessionId = nonEmpty(raw.sessionId);
  if (sessionId === null) return malformed('no sessionId');
  const cwd = nonEmpty(raw.cwd);
  if (cwd === null) return malformed('no cwd');
  const name = eventNameOf(raw);
  if (name === null) return malformed('not an event of Copilot CLI');
  const base: HostEventBase = { sessionId, cwd, transcriptPath: nonEmpty(raw.transcriptPath), agentId: null };
  switch (name) {
    case 'userPromptSubmitted':
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt as string } };
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure':
      return toolEvent(name, raw, base);
    case 'agentStop':
      return { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null } };
    // The end of a `copilot -p` run, or a turn that an error stopped: the turn is over.
    case 'sessionEnd':
      return { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null, sessionEnded: true } };
    case 'errorOccurred':
      return raw.recoverable === false
        ? { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null } }
        : ignored('a recoverable error: the turn goes on');
    default:
      return ignored(`${name} is not recorded`);
  }
}
