// Parses one Cursor hook event (the JSON object Cursor writes on a hook's stdin, as its hooks
// documentation gives it) into the core's host-neutral events. Every event carries
// hook_event_name, conversation_id (the session), generation_id (one agent reply) and
// workspace_roots (no cwd): the session's folder is the first root. Cursor runs these hooks from
// `.cursor/hooks.json` (and `~/.cursor/hooks.json`), and the hooks of Claude Code's settings
// too, with these same payloads.
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { SESSION_ID_PATTERN } from '../../protocol.js';
import type { HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';

export const CURSOR_HOST = 'cursor';

/** The events `init cursor` registers (settings.ts), each one this parser maps. */
export const CURSOR_EVENTS = [
  'beforeSubmitPrompt',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'afterFileEdit',
  'afterAgentResponse',
  'stop',
] as const;
/** Of those, the ones a command waits on: the before scan must be done before it runs. */
export const CURSOR_SCAN_EVENTS: ReadonlySet<string> = new Set([
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
]);

/** Cursor's tools that change one named file, with the input fields that may name it. */
const FILE_TOOLS = new Set(['Write', 'Edit', 'StrReplace', 'MultiEdit', 'Delete', 'EditNotebook']);
const PATH_FIELDS = ['file_path', 'path', 'target_file', 'target_notebook'];
/** Tools that change nothing: no scan for them. */
const READ_ONLY_TOOLS = new Set([
  'Read',
  'Grep',
  'Glob',
  'LS',
  'SemanticSearch',
  'codebase_search',
  'WebSearch',
  'WebFetch',
  'TodoWrite',
  'ReadLints',
  'Task',
]);
/** Shell and MCP calls come with events of their own (before/afterShellExecution, …MCPExecution). */
const isOwnEventTool = (tool: string) => tool === 'Shell' || tool.startsWith('MCP');
const MCP_COMMAND_LIMIT = 2000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });

/** Whether `raw` is shaped as Cursor's events are (also when it reaches Claude Code's hook). */
export function isCursorPayload(raw: unknown): boolean {
  return (
    isObject(raw) &&
    typeof raw.conversation_id === 'string' &&
    Array.isArray(raw.workspace_roots) &&
    raw.session_id === undefined
  );
}

/** Links a shell or MCP call's before event to its after event: neither carries a call id. */
const callKey = (generation: string, kind: string, what: string) =>
  `${kind}:${generation}:${createHash('sha256').update(what).digest('hex').slice(0, 16)}`;

export function parseCursorEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('input is not a JSON object');
  const name = raw.hook_event_name;
  if (typeof name !== 'string') return malformed('no hook_event_name');
  const sessionId = raw.conversation_id;
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId))
    return malformed(`invalid conversation_id in ${name}`);
  const roots = Array.isArray(raw.workspace_roots)
    ? raw.workspace_roots.filter((root): root is string => typeof root === 'string' && isAbsolute(root))
    : [];
  if (roots.length === 0) return malformed(`no absolute workspace_roots in ${name}`);
  const base: HostEventBase = { sessionId, cwd: roots[0], transcriptPath: null, agentId: null };
  const generation = nonEmpty(raw.generation_id) ?? '';

  switch (name) {
    case 'beforeSubmitPrompt':
      if (typeof raw.prompt !== 'string') return malformed('beforeSubmitPrompt without prompt');
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt } };
    case 'beforeShellExecution':
    case 'afterShellExecution': {
      const command = raw.command;
      if (typeof command !== 'string') return malformed(`${name} without command`);
      const callId = callKey(generation, 'shell', command);
      // A relative command runs in its own cwd, which may be a sub-folder: the scan covers the whole workspace anyway.
      return name === 'beforeShellExecution'
        ? { ok: true, event: { ...base, kind: 'exec', tool: 'Shell', command, callId, background: false } }
        : { ok: true, event: { ...base, kind: 'exec-end', tool: 'Shell', callId } };
    }
    case 'beforeMCPExecution':
    case 'afterMCPExecution': {
      const tool = nonEmpty(raw.tool_name);
      if (tool === null) return malformed(`${name} without tool_name`);
      // Documented both as an object and as a JSON string.
      const input = typeof raw.tool_input === 'string' ? raw.tool_input : JSON.stringify(raw.tool_input ?? {});
      const callId = callKey(generation, `mcp:${tool}`, input);
      return name === 'beforeMCPExecution'
        ? {
            ok: true,
            event: {
              ...base,
              kind: 'exec',
              tool: `MCP:${tool}`,
              command: cutText(input, MCP_COMMAND_LIMIT),
              callId,
              background: false,
            },
          }
        : { ok: true, event: { ...base, kind: 'exec-end', tool: `MCP:${tool}`, callId } };
    }
    case 'preToolUse':
      return parsePreTool(base, raw);
    case 'postToolUse':
    case 'postToolUseFailure': {
      const tool = nonEmpty(raw.tool_name);
      if (tool === null) return malformed(`${name} without tool_name`);
      if (isOwnEventTool(tool) || READ_ONLY_TOOLS.has(tool) || FILE_TOOLS.has(tool))
        return ignored(`${name} of ${tool} is not forwarded`);
      return { ok: true, event: { ...base, kind: 'exec-end', tool, callId: nonEmpty(raw.tool_use_id) } };
    }
    case 'afterFileEdit':
      // Seen only once the file has changed: the turn's own scan (scansWholeTurn) holds its original.
      return ignored("afterFileEdit: the edit is taken from the turn's scan");
    case 'afterAgentResponse': {
      const text = nonEmpty(raw.text);
      return text === null || text.trim() === ''
        ? ignored('afterAgentResponse without text')
        : { ok: true, event: { ...base, kind: 'reply', text } };
    }
    case 'stop':
      return { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null } };
    default:
      return ignored(`event ${name} is not forwarded`);
  }
}

function parsePreTool(base: HostEventBase, raw: Json): ParsedHostEvent {
  const tool = nonEmpty(raw.tool_name);
  if (tool === null) return malformed('preToolUse without tool_name');
  if (isOwnEventTool(tool) || READ_ONLY_TOOLS.has(tool)) return ignored(`preToolUse of ${tool} is not forwarded`);
  const input = isObject(raw.tool_input) ? raw.tool_input : {};
  const callId = nonEmpty(raw.tool_use_id);
  if (FILE_TOOLS.has(tool)) {
    const path = PATH_FIELDS.map((field) => nonEmpty(input[field])).find((value) => value !== null);
    if (!path) return malformed(`preToolUse ${tool} names no file`);
    return { ok: true, event: { ...base, kind: 'before-mutate', tool, paths: [path], callId } };
  }
  // A tool turnback does not know may change anything: scanned around.
  return {
    ok: true,
    event: {
      ...base,
      kind: 'exec',
      tool,
      command: cutText(JSON.stringify(input), MCP_COMMAND_LIMIT),
      callId,
      background: false,
    },
  };
}

/**
 * What identifies one event, whichever of its hooks delivered it: Cursor runs an event's hooks
 * from several files (its own, Claude Code's settings), each with the event's payload.
 */
export function cursorDeliveryKey(raw: unknown): string | null {
  if (!isObject(raw)) return null;
  const fields = [
    'conversation_id',
    'generation_id',
    'tool_use_id',
    'tool_name',
    'tool_input',
    'command',
    'prompt',
    'file_path',
    'text',
    'status',
    'loop_count',
  ];
  const name = typeof raw.hook_event_name === 'string' ? raw.hook_event_name.toLowerCase() : '';
  return createHash('sha256')
    .update(JSON.stringify([name, ...fields.map((field) => raw[field] ?? null)]))
    .digest('hex');
}
