// Parses one Claude Code hook event (the JSON object it writes on the hook's stdin) into the
// core's host-neutral events. Anything else is either "ignored" (a valid event we have no use
// for: PostToolBatch, CwdChanged, FileChanged and every other newer one) or "malformed" (not an
// event at all), so the caller can log the latter.
// Fields seen from Claude Code 2.1.197 and 2.1.328: every event carries session_id,
// transcript_path, cwd and hook_event_name; tool events add tool_name, tool_input and
// tool_use_id (a subagent's add agent_id and agent_type, with the parent's session_id);
// SubagentStart and SubagentStop carry agent_id; Stop and StopFailure add
// last_assistant_message; a failed tool fires PostToolUseFailure instead of PostToolUse.
import { SESSION_ID_PATTERN } from '../../protocol.js';
import type { HostEvent, HostEventBase, ParsedHostEvent } from '../core/host.js';
import { hookPathOf } from '../core/hook-path.js';
import { cutText } from '../core/text.js';
import { isCursorPayload, parseCursorEvent } from '../cursor/event.js';

export const CLAUDE_CODE_HOST = 'claude-code';
/** The server route each event is handed to, raw (docs/api.md): the hook posts to it, core/route.ts serves it. */
export const CLAUDE_CODE_HOOK_PATH = hookPathOf(CLAUDE_CODE_HOST);

/** Tools whose PreToolUse means "a file is about to change", with the field naming it. */
const FILE_TOOLS: Record<string, 'file_path' | 'notebook_path'> = {
  Write: 'file_path',
  Edit: 'file_path',
  // Gone from Claude Code 2.x; older versions still send it.
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};
/** Those tools as a Claude Code hook matcher (settings.ts registers it for PreToolUse). */
export const FILE_TOOL_MATCHER = Object.keys(FILE_TOOLS).join('|');

/** Bash and every MCP tool: what they change, only a scan of the workspace can tell. */
const SHELL_TOOL = 'Bash';
const MCP_TOOL_PREFIX = 'mcp__';
/** Those tools as a Claude Code hook matcher (settings.ts registers it before and after them). */
export const COMMAND_TOOL_MATCHER = `${SHELL_TOOL}|${MCP_TOOL_PREFIX}.*`;
const isCommandTool = (tool: string): boolean => tool === SHELL_TOOL || tool.startsWith(MCP_TOOL_PREFIX);

/** The events that end a turn: a reply, an API error, or the session closing (`--max-turns`, exit, `/clear`). */
export const TURN_END_EVENTS = ['Stop', 'StopFailure', 'SessionEnd'] as const;
export type TurnEndEvent = (typeof TURN_END_EVENTS)[number];
/** A subagent's life: a turn stays open until the subagents started in it have stopped (2.1.328 runs them in the background). */
export const SUBAGENT_EVENTS = ['SubagentStart', 'SubagentStop'] as const;

/** An MCP tool's input shown as its command is cut here: it can carry whole documents. */
const MCP_COMMAND_LIMIT = 2000;

export type HookEvent = HostEvent;
export type ParsedHookEvent = ParsedHostEvent;
type EventBase = HostEventBase;

type Json = Record<string, unknown>;

/** The prompt Claude Code writes itself when a background subagent is done. */
export const TASK_NOTIFICATION = '<task-notification>';

/** The ids of the subagents Stop says still run (`background_tasks`, 2.1.328: `{id, type: "subagent", status}`). */
function runningSubagents(tasks: unknown): string[] {
  if (!Array.isArray(tasks)) return [];
  return tasks
    .filter(
      (task): task is Json =>
        isObject(task) &&
        task.type === 'subagent' &&
        task.status === 'running' &&
        typeof task.id === 'string' &&
        task.id !== '',
    )
    .map((task) => task.id as string);
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const malformed = (reason: string): ParsedHookEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHookEvent => ({ ok: false, ignored: true, reason });

export function parseHookEvent(text: string): ParsedHookEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return malformed('input is not JSON');
  }
  return parseHookEventValue(raw);
}

const nonEmptyString = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;

/** The same, for an event whose JSON is already parsed (the server's hook route). */
export function parseHookEventValue(raw: unknown): ParsedHookEvent {
  // Cursor runs Claude Code's hooks with its own payloads: they are Cursor's events (the route hands them to its host).
  if (isCursorPayload(raw)) return parseCursorEvent(raw);
  if (!isObject(raw)) return malformed('input is not a JSON object');

  const name = raw.hook_event_name;
  if (typeof name !== 'string') return malformed('no hook_event_name');
  const sessionId = raw.session_id;
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) {
    return malformed(`invalid session_id in ${name}`);
  }
  const cwd = raw.cwd;
  if (typeof cwd !== 'string' || cwd.length === 0) return malformed(`no cwd in ${name}`);
  const base: EventBase = {
    sessionId,
    cwd,
    transcriptPath: nonEmptyString(raw.transcript_path),
    agentId: nonEmptyString(raw.agent_id),
  };

  switch (name) {
    case 'UserPromptSubmit':
      if (typeof raw.prompt !== 'string') return malformed('UserPromptSubmit without prompt');
      // Written by Claude Code itself when a background subagent is done (2.1.328): not the person's.
      if (raw.prompt.trimStart().startsWith(TASK_NOTIFICATION))
        return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt, continuesTurn: true } };
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt } };
    case 'PreToolUse':
      return parseToolStart(base, raw);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return parseToolEnd(base, raw, name);
    case 'SubagentStart':
    case 'SubagentStop':
      if (base.agentId === null) return malformed(`${name} without agent_id`);
      return { ok: true, event: { ...base, kind: name === 'SubagentStart' ? 'subagent-start' : 'subagent-end' } };
    case 'Stop':
    case 'StopFailure':
    case 'SessionEnd': {
      // The reply itself: the transcript may not hold it yet when Stop fires.
      const last = raw.last_assistant_message;
      const lastReply = typeof last === 'string' && last.trim() !== '' ? last : null;
      return {
        ok: true,
        event: {
          ...base,
          kind: 'turn-end',
          event: name,
          lastReply,
          runningAgents: runningSubagents(raw.background_tasks),
          ...(name === 'SessionEnd' ? { sessionEnded: true } : {}),
        },
      };
    }
    default:
      return ignored(`event ${name} is not forwarded`);
  }
}

function toolOf(raw: Json, name: string): { tool: string; input: Json } | ParsedHookEvent {
  const tool = raw.tool_name;
  if (typeof tool !== 'string') return malformed(`${name} without tool_name`);
  const input = raw.tool_input;
  if (!isObject(input)) return malformed(`${name} ${tool} without tool_input`);
  return { tool, input };
}

function parseToolStart(base: EventBase, raw: Json): ParsedHookEvent {
  const parsed = toolOf(raw, 'PreToolUse');
  if ('ok' in parsed) return parsed;
  const { tool, input } = parsed;
  if (isCommandTool(tool)) {
    const command = commandOf(tool, input);
    if (command === null) return malformed(`PreToolUse ${tool} without command`);
    return {
      ok: true,
      event: {
        ...base,
        kind: 'exec',
        tool,
        command,
        callId: nonEmptyString(raw.tool_use_id),
        // Its PostToolUse comes while it still runs: only the turn's end can see what it did.
        background: input.run_in_background === true,
      },
    };
  }
  const field = FILE_TOOLS[tool];
  if (!field) return ignored(`tool ${tool} is not forwarded`);
  const path = input[field];
  if (typeof path !== 'string' || path.length === 0) {
    return malformed(`PreToolUse ${tool} without ${field}`);
  }
  return {
    ok: true,
    event: { ...base, kind: 'before-mutate', tool, paths: [path], callId: nonEmptyString(raw.tool_use_id) },
  };
}

function commandOf(tool: string, input: Json): string | null {
  if (tool === SHELL_TOOL) return typeof input.command === 'string' ? input.command : null;
  return cutText(JSON.stringify(input), MCP_COMMAND_LIMIT);
}

function parseToolEnd(base: EventBase, raw: Json, name: string): ParsedHookEvent {
  const parsed = toolOf(raw, name);
  if ('ok' in parsed) return parsed;
  if (!isCommandTool(parsed.tool)) return ignored(`${name} of ${parsed.tool} is not forwarded`);
  const command = commandOf(parsed.tool, parsed.input);
  const callId = nonEmptyString(raw.tool_use_id);
  return { ok: true, event: { ...base, kind: 'exec-end', tool: parsed.tool, callId, ...(command ? { command } : {}) } };
}
