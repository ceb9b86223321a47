// Parses one Gemini CLI hook event (the JSON object it writes on the hook's stdin) into the
// core's host-neutral events (core/host.ts). Fields seen from Gemini CLI 0.61.0 (fixtures in
// test/fixtures/): every event carries session_id, transcript_path, cwd, hook_event_name and
// timestamp; BeforeAgent adds prompt; BeforeTool adds tool_name and tool_input; AfterTool adds
// tool_response (`error` set when the tool failed; a shell command that exits non-zero is no
// failure, its exit code is in llmContent); AfterAgent adds prompt and prompt_response;
// SessionEnd adds reason. No event carries a call id: the call is named by its tool and input
// (callIdOf), which a tool's BeforeTool and AfterTool share and its transcript entry repeats.
import { createHash } from 'node:crypto';
import { SESSION_ID_PATTERN } from '../../protocol.js';
import type { HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';

export const GEMINI_HOST = 'gemini';

/** Tools that change one file, named by `file_path`: announced before they run (before-mutate). */
export const FILE_TOOLS = ['write_file', 'replace'] as const;
export const SHELL_TOOL = 'run_shell_command';
/** Tools that only read or talk: nothing to record. Every other tool (MCP `mcp_*`, unknown) is scanned. */
export const READ_ONLY_TOOLS = [
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'grep_search',
  'google_web_search',
  'web_fetch',
  'write_todos',
  'update_topic',
  'activate_skill',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'list_background_processes',
  'read_background_output',
  'get_internal_docs',
  'complete_task',
  'read_mcp_resource',
  'list_mcp_resources',
  'save_memory',
] as const;
// invoke_agent (a sub-agent) is not among them: it is scanned before and after, so whatever the
// sub-agent changes is the turn's even where its own tools' hooks do not run.
const SUBAGENT_TOOL = 'invoke_agent';

/** The events turnback's hooks are registered for (settings.ts). */
export const HOOK_EVENTS = ['BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'] as const;

/** A tool's input shown as its command is cut here: an MCP tool's can carry whole documents. */
const COMMAND_LIMIT = 2000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });

/** JSON with keys sorted at every level, so the same input names the same call wherever it is written. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The id of a call: its tool and input (Gemini runs a session's tool calls one after another). */
export function callIdOf(tool: string, input: Json): string {
  return `${tool}:${createHash('sha256').update(stableJson(input)).digest('hex').slice(0, 16)}`;
}

const isFileTool = (tool: string): boolean => (FILE_TOOLS as readonly string[]).includes(tool);
const isReadOnly = (tool: string): boolean => (READ_ONLY_TOOLS as readonly string[]).includes(tool);

export function parseGeminiEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('input is not a JSON object');
  const name = raw.hook_event_name;
  if (typeof name !== 'string') return malformed('no hook_event_name');
  const sessionId = raw.session_id;
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId))
    return malformed(`invalid session_id in ${name}`);
  const cwd = nonEmptyString(raw.cwd);
  if (cwd === null) return malformed(`no cwd in ${name}`);
  const base: HostEventBase = { sessionId, cwd, transcriptPath: nonEmptyString(raw.transcript_path), agentId: null };

  switch (name) {
    case 'BeforeAgent':
      if (typeof raw.prompt !== 'string') return malformed('BeforeAgent without prompt');
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt } };
    case 'BeforeTool':
    case 'AfterTool': {
      const tool = raw.tool_name;
      if (typeof tool !== 'string') return malformed(`${name} without tool_name`);
      const input = raw.tool_input;
      if (!isObject(input)) return malformed(`${name} ${tool} without tool_input`);
      return name === 'BeforeTool' ? toolStart(base, tool, input) : toolEnd(base, tool, input);
    }
    case 'AfterAgent': {
      const reply = raw.prompt_response;
      return {
        ok: true,
        event: {
          ...base,
          kind: 'turn-end',
          event: name,
          lastReply: typeof reply === 'string' && reply.trim() !== '' ? reply : null,
        },
      };
    }
    case 'SessionEnd':
      return { ok: true, event: { ...base, kind: 'turn-end', event: name, lastReply: null } };
    default:
      return ignored(`event ${name} is not forwarded`);
  }
}

/** What a call is recorded under: a shell's command line, another tool's input (cut). Null: a shell call without one. */
function commandOf(tool: string, input: Json): string | null {
  return tool === SHELL_TOOL ? nonEmptyString(input.command) : cutText(JSON.stringify(input), COMMAND_LIMIT);
}

function toolStart(base: HostEventBase, tool: string, input: Json): ParsedHostEvent {
  const callId = callIdOf(tool, input);
  if (isFileTool(tool)) {
    const path = nonEmptyString(input.file_path);
    if (path === null) return malformed(`BeforeTool ${tool} without file_path`);
    return { ok: true, event: { ...base, kind: 'before-mutate', tool, paths: [path], callId } };
  }
  if (isReadOnly(tool)) return ignored(`tool ${tool} changes no file`);
  // Only a shell call can lack its command.
  const command = commandOf(tool, input);
  if (command === null) return malformed(`BeforeTool ${tool} without command`);
  if (tool === SHELL_TOOL) {
    // Its AfterTool comes while it still runs: only the turn's end can see what it did.
    return {
      ok: true,
      event: { ...base, kind: 'exec', tool, command, callId, background: input.is_background === true },
    };
  }
  return {
    ok: true,
    event: {
      ...base,
      kind: 'exec',
      tool,
      command,
      callId,
      background: false,
      ...(tool === SUBAGENT_TOOL ? { nests: true } : {}),
    },
  };
}

function toolEnd(base: HostEventBase, tool: string, input: Json): ParsedHostEvent {
  if (isFileTool(tool) || isReadOnly(tool)) return ignored(`AfterTool of ${tool} is not forwarded`);
  const command = commandOf(tool, input);
  const told = command === null ? {} : { command };
  return { ok: true, event: { ...base, kind: 'exec-end', tool, callId: callIdOf(tool, input), ...told } };
}
