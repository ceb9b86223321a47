// A Codex CLI hook event (the JSON Codex writes on a hook's stdin) as a host-neutral one
// (core/host.ts). Facts of Codex 0.169.0, each asserted by event.test.ts on recorded payloads:
// - every event carries session_id, cwd and transcript_path (the rollout JSONL); a sub-agent's
//   carry the parent's session_id, its agent_id, and its own rollout;
// - every shell tool is reported as `Bash` with the script in `tool_input.command`; file edits
//   are `apply_patch` with the patch in `tool_input.command`; MCP tools are `mcp__<server>__<tool>`;
// - a tool that fails to run at all (a patch that does not apply) gets no PostToolUse, and there
//   is no PostToolUseFailure or StopFailure: a turn the API failed ends with SessionEnd alone;
// - a command still running when its yield time passed gets its PostToolUse when it ends (seen
//   while Codex polls it with write_stdin, which itself sends no hook event); one Codex leaves
//   running gets none (the turn's end scans what is still open);
// - a sub-agent's prompt comes as a UserPromptSubmit with agent_id, after SubagentStart.
import type { HostEvent, HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';
import { patchPaths } from './patch.js';

export const CODEX_HOST = 'codex';

/** Codex's tools that change nothing in the workspace: their calls are not scanned. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'view_image',
  'request_user_input',
  'get_goal',
  'create_goal',
  'update_goal',
  'update_plan',
  'tool_search',
  'web_search',
  'list_mcp_resources',
  'list_mcp_resource_templates',
  'read_mcp_resource',
]);
/** Sub-agent tools (reported as `spawn_agent`, `multi_agent_v1wait_agent`, …): the sub-agent's own calls are hooked. */
const AGENT_TOOL = /^(multi_agent_v\d+)?(spawn_agent|wait_agent|send_input|resume_agent|close_agent)$/;

export const PATCH_TOOL = 'apply_patch';
export const SHELL_TOOL = 'Bash';

/** A command's shown text is cut past this many code points (an MCP call's input as JSON). */
const COMMAND_LIMIT = 4000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOr = (value: unknown, fallback: string | null): string | null =>
  typeof value === 'string' ? value : fallback;

const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const event = (value: HostEvent): ParsedHostEvent => ({ ok: true, event: value });

const isQuietTool = (tool: string) => READ_ONLY_TOOLS.has(tool) || AGENT_TOOL.test(tool);

function commandOf(tool: string, input: unknown): string {
  const command = isObject(input) && typeof input.command === 'string' ? input.command : JSON.stringify(input ?? null);
  const shown = tool === SHELL_TOOL || tool === PATCH_TOOL ? command : `${tool} ${command}`;
  return cutText(shown, COMMAND_LIMIT);
}

/** The paths of an apply_patch call, or null when it is to be scanned instead. */
function patchedPaths(input: unknown): string[] | null {
  return isObject(input) && typeof input.command === 'string' ? patchPaths(input.command) : null;
}

function toolEvent(name: string, raw: Json, base: HostEventBase): ParsedHostEvent {
  const tool = raw.tool_name;
  if (typeof tool !== 'string' || tool === '') return malformed(`${name} without tool_name`);
  const callId = stringOr(raw.tool_use_id, null);
  if (isQuietTool(tool)) return ignored(`${tool} changes no file`);
  const paths = tool === PATCH_TOOL ? patchedPaths(raw.tool_input) : null;
  if (name === 'PreToolUse') {
    if (paths !== null) return event({ ...base, kind: 'before-mutate', tool, paths, callId });
    return event({ ...base, kind: 'exec', tool, command: commandOf(tool, raw.tool_input), callId, background: false });
  }
  if (paths !== null) return ignored(`${tool}'s files were recorded before it ran`);
  const command = raw.tool_input === undefined ? {} : { command: commandOf(tool, raw.tool_input) };
  return event({ ...base, kind: 'exec-end', tool, callId, ...command });
}

export function parseCodexEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('the event is not a JSON object');
  const name = raw.hook_event_name;
  if (typeof name !== 'string') return malformed('no hook_event_name');
  if (typeof raw.session_id !== 'string' || raw.session_id === '') return malformed('no session_id');
  if (typeof raw.cwd !== 'string' || raw.cwd === '') return malformed('no cwd');
  const agentId = stringOr(raw.agent_id, null);
  const base: HostEventBase = {
    sessionId: raw.session_id,
    cwd: raw.cwd,
    transcriptPath: stringOr(raw.transcript_path, null),
    agentId,
  };
  switch (name) {
    case 'UserPromptSubmit':
      // The task its parent gave it, not a person's prompt: the sub-agent works in its parent's turn.
      if (agentId !== null) return ignored("a sub-agent's prompt");
      if (typeof raw.prompt !== 'string') return malformed('UserPromptSubmit without prompt');
      return event({ ...base, kind: 'prompt', prompt: raw.prompt });
    case 'PreToolUse':
    case 'PostToolUse':
      return toolEvent(name, raw, base);
    case 'SubagentStart':
      return agentId === null
        ? malformed('SubagentStart without agent_id')
        : event({ ...base, kind: 'subagent-start' });
    case 'SubagentStop':
      return agentId === null ? malformed('SubagentStop without agent_id') : event({ ...base, kind: 'subagent-end' });
    case 'Stop':
      if (agentId !== null) return event({ ...base, kind: 'subagent-end' });
      return event({ ...base, kind: 'turn-end', event: name, lastReply: stringOr(raw.last_assistant_message, null) });
    // A turn the API failed (no Stop), the end of `codex exec`, or an Esc: the turn is over.
    case 'SessionEnd':
    case 'Interrupt':
      if (agentId !== null) return ignored(`a sub-agent's ${name}`);
      // A closed session's sub-agents run no more (`codex exec` ends them): nothing to wait for.
      return event({
        ...base,
        kind: 'turn-end',
        event: name,
        lastReply: null,
        ...(name === 'SessionEnd' ? { sessionEnded: true } : {}),
      });
    default:
      return ignored(`${name} is not recorded`);
  }
}
