// Parses one event of turnback's OpenCode plugin (plugin.ts, which OpenCode runs in its own
// process) into the core's host-neutral events (core/host.ts). The plugin sends what OpenCode's
// plugin API (V1, run by OpenCode 1.18.33) hands it, as
// `{event, session_id, cwd, agent_id?, prompt?, tool?, call_id?, args?, reply?}`:
// - `prompt` from `chat.message` (the person's message; a sub-agent's is not sent);
// - `tool.before` / `tool.after` from `tool.execute.before` / `.after` (`callID` links them; a
//   tool that throws has no `.after`: the turn's end scans what it did);
// - `subagent.start` / `subagent.end` from `session.created` with a parentID and that child
//   session's `session.idle` (its tools come as the parent's, with `agent_id` the child's);
// - `idle` from the session's `session.idle`: the turn's end, with the reply's text.
import { SESSION_ID_PATTERN } from '../../protocol.js';
import type { HostEventBase, ParsedHostEvent } from '../core/host.js';
import { cutText } from '../core/text.js';

export const OPENCODE_HOST = 'opencode';

/** Tools that change one file, named by `filePath`. */
export const FILE_TOOLS = ['edit', 'write'] as const;
export const SHELL_TOOL = 'bash';
/** Tools that only read, ask or delegate (a sub-agent's own tools are reported): nothing to record. */
export const READ_ONLY_TOOLS = [
  'read',
  'glob',
  'grep',
  'list',
  'webfetch',
  'websearch',
  'codesearch',
  'todowrite',
  'todoread',
  'task',
  'skill',
  'question',
  'lsp',
  'plan_enter',
  'plan_exit',
] as const;

const COMMAND_LIMIT = 2000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;
const malformed = (reason: string): ParsedHostEvent => ({ ok: false, ignored: false, reason });
const ignored = (reason: string): ParsedHostEvent => ({ ok: false, ignored: true, reason });
const isFileTool = (tool: string) => (FILE_TOOLS as readonly string[]).includes(tool);
const isReadOnly = (tool: string) => (READ_ONLY_TOOLS as readonly string[]).includes(tool);

export function parseOpencodeEvent(raw: unknown): ParsedHostEvent {
  if (!isObject(raw)) return malformed('input is not a JSON object');
  const name = raw.event;
  if (typeof name !== 'string') return malformed('no event');
  const sessionId = raw.session_id;
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId))
    return malformed(`invalid session_id in ${name}`);
  const cwd = nonEmptyString(raw.cwd);
  if (cwd === null) return malformed(`no cwd in ${name}`);
  const agentId = nonEmptyString(raw.agent_id);
  const base: HostEventBase = { sessionId, cwd, transcriptPath: null, agentId };

  switch (name) {
    case 'prompt':
      if (typeof raw.prompt !== 'string') return malformed('prompt without prompt');
      return { ok: true, event: { ...base, kind: 'prompt', prompt: raw.prompt } };
    case 'tool.before':
    case 'tool.after': {
      const tool = nonEmptyString(raw.tool);
      if (tool === null) return malformed(`${name} without tool`);
      const args = isObject(raw.args) ? raw.args : {};
      const callId = nonEmptyString(raw.call_id);
      return name === 'tool.before' ? toolStart(base, tool, args, callId) : toolEnd(base, tool, callId);
    }
    case 'subagent.start':
    case 'subagent.end':
      if (agentId === null) return malformed(`${name} without agent_id`);
      return { ok: true, event: { ...base, kind: name === 'subagent.start' ? 'subagent-start' : 'subagent-end' } };
    case 'idle': {
      const reply = raw.reply;
      return {
        ok: true,
        event: {
          ...base,
          agentId: null,
          kind: 'turn-end',
          event: 'session.idle',
          lastReply: typeof reply === 'string' && reply.trim() !== '' ? reply : null,
        },
      };
    }
    default:
      return ignored(`event ${name} is not forwarded`);
  }
}

function toolStart(base: HostEventBase, tool: string, args: Json, callId: string | null): ParsedHostEvent {
  if (isFileTool(tool)) {
    const path = nonEmptyString(args.filePath);
    if (path === null) return malformed(`tool.before ${tool} without filePath`);
    return { ok: true, event: { ...base, kind: 'before-mutate', tool, paths: [path], callId } };
  }
  if (isReadOnly(tool)) return ignored(`tool ${tool} changes no file`);
  if (tool === SHELL_TOOL) {
    const command = nonEmptyString(args.command);
    if (command === null) return malformed(`tool.before ${tool} without command`);
    return { ok: true, event: { ...base, kind: 'exec', tool, command, callId, background: false } };
  }
  // apply_patch, MCP tools (`<server>_<tool>`) and any other: scanned before and after.
  return {
    ok: true,
    event: {
      ...base,
      kind: 'exec',
      tool,
      command: cutText(JSON.stringify(args), COMMAND_LIMIT),
      callId,
      background: false,
    },
  };
}

function toolEnd(base: HostEventBase, tool: string, callId: string | null): ParsedHostEvent {
  if (isFileTool(tool) || isReadOnly(tool)) return ignored(`tool.after of ${tool} is not forwarded`);
  return { ok: true, event: { ...base, kind: 'exec-end', tool, callId } };
}
