// Reads one turn of a Copilot CLI session log (`session-state/<id>/events.jsonl`, Copilot CLI
// 1.0.102): one `{type, data}` record a line. A prompt is `user.message` (`data.content`, the
// prompt as typed); each model message is `assistant.message` with its text in `data.content`
// and its calls in `data.toolRequests` `[{toolCallId, name, arguments}]`. Copilot logs each hook it
// runs (`hook.start` with `data.hookType`) and writes the log behind: the turn's last reply is on
// disk once the `hook.start` of its agentStop is (ended). The core reads only
// below the session-state folder, backwards from the end, bounded (core/transcript/).
import { join } from 'node:path';
import type { TranscriptItem } from '../core/chat.js';
import type { HostTranscripts, TurnCollector } from '../core/host.js';
import { argsOf, callIdOf } from './event.js';
import { copilotHome } from './home.js';

type Json = Record<string, unknown>;
type Line =
  { kind: 'model'; items: TranscriptItem[] } | { kind: 'prompt'; text: string } | { kind: 'stop' } | { kind: 'other' };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function modelItems(data: Json): TranscriptItem[] {
  const messageId = typeof data.messageId === 'string' ? data.messageId : null;
  const items: TranscriptItem[] = [];
  if (typeof data.content === 'string' && data.content.trim() !== '')
    items.push({ kind: 'text', messageId, text: data.content });
  for (const call of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
    if (!isObject(call) || typeof call.name !== 'string') continue;
    const input = argsOf(call.arguments);
    // The hooks' call id (event.ts), so a turn's end knows when the log holds its calls.
    items.push({ kind: 'tool', id: callIdOf(call.name, input), name: call.name, input });
  }
  return items;
}

function classify(text: string): Line {
  if (!text.includes('.message"') && !text.includes('"agentStop"')) return { kind: 'other' };
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  if (!isObject(record) || !isObject(record.data)) return { kind: 'other' };
  if (record.type === 'user.message' && typeof record.data.content === 'string')
    return { kind: 'prompt', text: record.data.content };
  if (record.type === 'assistant.message') return { kind: 'model', items: modelItems(record.data) };
  if (record.type === 'hook.start' && record.data.hookType === 'agentStop') return { kind: 'stop' };
  return { kind: 'other' };
}

/** Collects the items after the turn's prompt and before the next prompt, from lines given last first. */
export function copilotTurnCollector(prompt: string | null): TurnCollector {
  let segment: TranscriptItem[][] = [];
  let stopped = false;
  let found = false;
  return {
    take(text: string): boolean {
      const line = classify(text);
      if (line.kind === 'model') segment.push(line.items);
      if (line.kind === 'stop') stopped = true;
      if (line.kind !== 'prompt') return false;
      if (prompt === null || line.text.trim() === prompt.trim()) return (found = true);
      segment = [];
      stopped = false;
      return false;
    },
    items: () => (found || prompt === null ? segment.slice().reverse().flat() : []),
    ended: () => stopped,
  };
}

export const copilotTranscripts: HostTranscripts = {
  folders: (home, env) => [join(copilotHome(home, env), 'session-state')],
  collector: copilotTurnCollector,
  // A new session's events.jsonl appears after its first agentStop (seen on 1.0.102).
  createdAfterEnd: true,
};
