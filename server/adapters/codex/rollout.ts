// Reads one turn of a Codex rollout (the session's JSONL under `$CODEX_HOME/sessions`, which every
// hook event names as transcript_path): what the assistant wrote and which tools it called after
// the turn's prompt. Each line is `{timestamp, type, payload}`; the model's side is in
// `response_item` lines: `message` (role user, assistant or developer), `function_call`
// (`exec_command`, an MCP tool under its `namespace`, …), `custom_tool_call` (`apply_patch`, its
// patch as `input`), and their `*_output`s. Tool calls are named as Codex's hooks name them
// (`Bash`, `apply_patch`, `mcp__<server>__<tool>`), with the `call_id` the hooks carry as
// tool_use_id, so a turn's end can wait until every call its hooks announced is written.
import { join } from 'node:path';
import type { TranscriptItem } from '../core/chat.js';
import type { HostTranscripts, TurnCollector } from '../core/host.js';
import { PATCH_TOOL, SHELL_TOOL } from './event.js';
import { codexHome } from './home.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tools whose hooks report another name than the model calls them by. */
const SHELL_FUNCTIONS = new Set(['exec_command', 'shell', 'shell_command', 'local_shell']);

function parseLine(line: string): Json | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && isObject(value.payload) ? value : null;
  } catch {
    return null;
  }
}

function textOf(content: unknown, partType: string): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is Json => isObject(part) && part.type === partType && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

function argumentsOf(text: unknown): Json {
  if (typeof text !== 'string') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A function call as the hooks name it, with the input they would carry. */
function functionCall(payload: Json): { name: string; input: Json } {
  const name = typeof payload.name === 'string' ? payload.name : '?';
  const args = argumentsOf(payload.arguments);
  if (SHELL_FUNCTIONS.has(name)) {
    const command =
      typeof args.cmd === 'string' ? args.cmd : Array.isArray(args.command) ? args.command.join(' ') : args.command;
    return { name: SHELL_TOOL, input: { command: typeof command === 'string' ? command : '' } };
  }
  const namespace = typeof payload.namespace === 'string' ? payload.namespace : '';
  return { name: namespace.startsWith('mcp__') ? `${namespace}__${name}` : name, input: args };
}

/** The item a response_item line holds, the prompt text when it is a person's message, or nothing. */
function itemOf(payload: Json): { item: TranscriptItem } | { prompt: string } | null {
  const callId = typeof payload.call_id === 'string' ? payload.call_id : null;
  switch (payload.type) {
    case 'message':
      if (payload.role === 'user') return { prompt: textOf(payload.content, 'input_text') };
      if (payload.role !== 'assistant') return null;
      {
        const text = textOf(payload.content, 'output_text');
        return text.trim() === ''
          ? null
          : { item: { kind: 'text', messageId: typeof payload.id === 'string' ? payload.id : null, text } };
      }
    case 'function_call': {
      const { name, input } = functionCall(payload);
      return { item: { kind: 'tool', id: callId, name, input } };
    }
    case 'custom_tool_call': {
      const name = typeof payload.name === 'string' ? payload.name : '?';
      const input = typeof payload.input === 'string' ? payload.input : '';
      return { item: { kind: 'tool', id: callId, name, input: name === PATCH_TOOL ? { command: input } : { input } } };
    }
    default:
      return null;
  }
}

/**
 * Collects the turn prompted by `prompt` from lines newest first; with no prompt, the last turn
 * (back to its `task_started`). Each turn begins with a `task_started` event, so the items of a
 * later turn than the one asked for are dropped when its start is read.
 */
export function rolloutCollector(prompt: string | null): TurnCollector {
  const newestFirst: TranscriptItem[] = [];
  const wanted = prompt?.trim() ?? null;
  return {
    take(line) {
      const entry = parseLine(line);
      if (entry === null) return false;
      const payload = entry.payload as Json;
      if (entry.type === 'event_msg' && payload.type === 'task_started') {
        // A turn's first line: with no prompt asked for, the last turn is whole; else what was
        // collected belongs to a later turn than the one asked for.
        if (wanted === null) return true;
        newestFirst.length = 0;
        return false;
      }
      if (entry.type !== 'response_item') return false;
      const found = itemOf(payload);
      if (found === null) return false;
      if ('prompt' in found) {
        if (wanted !== null && found.prompt.trim() === wanted) return true;
        return false;
      }
      newestFirst.push(found.item);
      return false;
    },
    items: () => [...newestFirst].reverse(),
  };
}

export const codexTranscripts: HostTranscripts = {
  // Rollouts live under sessions/YYYY/MM/DD; an archived session's moves to archived_sessions.
  folders: (home, env) => [join(codexHome(home, env), 'sessions'), join(codexHome(home, env), 'archived_sessions')],
  collector: rolloutCollector,
};
