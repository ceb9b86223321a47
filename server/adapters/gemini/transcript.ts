// Reads one turn of a Gemini CLI session file (JSONL, Gemini CLI 0.61.0): a record per message,
// `{id, type: "user" | "gemini", content, toolCalls?}`, plus `$set` lines that update the
// session's metadata. A prompt is a user record with text parts and no functionResponse (tool
// results are user records too). A model message is written twice under one id, first without
// and then with its toolCalls `[{id, name, args}]`: read newest first, the first seen counts.
// Gemini keeps these files under `~/.gemini/tmp/<project>/chats/` (`$GEMINI_CLI_HOME/.gemini/…`
// when set): the core reads nothing elsewhere, backwards from the end, bounded (core/transcript/).
import { join } from 'node:path';
import type { TranscriptItem } from '../core/chat.js';
import type { HostTranscripts, TurnCollector } from '../core/host.js';
import { callIdOf } from './event.js';

type Json = Record<string, unknown>;
type Line =
  { kind: 'model'; id: string | null; items: TranscriptItem[] } | { kind: 'prompt'; text: string } | { kind: 'other' };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function promptText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.some((part) => isObject(part) && part.functionResponse !== undefined))
    return null;
  const texts = content
    .filter((part) => isObject(part) && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : null;
}

function modelItems(record: Json): TranscriptItem[] {
  const messageId = typeof record.id === 'string' ? record.id : null;
  const items: TranscriptItem[] = [];
  const { content } = record;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter((p) => isObject(p) && typeof p.text === 'string')
            .map((p) => (p as { text: string }).text)
            .join('')
        : '';
  if (text.trim() !== '') items.push({ kind: 'text', messageId, text });
  for (const call of Array.isArray(record.toolCalls) ? record.toolCalls : []) {
    if (!isObject(call) || typeof call.name !== 'string') continue;
    const input = isObject(call.args) ? call.args : {};
    // The hooks' call id (event.ts), so a turn's end knows when the file holds its calls.
    items.push({ kind: 'tool', id: callIdOf(call.name, input), name: call.name, input });
  }
  return items;
}

function classify(line: string): Line {
  if (!line.includes('"type"')) return { kind: 'other' };
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  if (!isObject(record)) return { kind: 'other' };
  if (record.type === 'user') {
    const text = promptText(record.content);
    return text === null ? { kind: 'other' } : { kind: 'prompt', text };
  }
  if (record.type === 'gemini')
    return { kind: 'model', id: typeof record.id === 'string' ? record.id : null, items: modelItems(record) };
  return { kind: 'other' };
}

/** Collects the items after the turn's prompt and before the next prompt, from lines given last first. */
export function geminiTurnCollector(prompt: string | null): TurnCollector {
  let segment: TranscriptItem[][] = [];
  let seen = new Set<string>();
  let found = false;
  return {
    take(text: string): boolean {
      const line = classify(text);
      if (line.kind === 'model') {
        if (line.id !== null && seen.has(line.id)) return false; // an earlier write of a message already taken
        if (line.id !== null) seen.add(line.id);
        segment.push(line.items);
      }
      if (line.kind !== 'prompt') return false;
      if (prompt === null || line.text.trim() === prompt.trim()) return (found = true);
      segment = [];
      seen = new Set();
      return false;
    },
    items: () => (found || prompt === null ? segment.slice().reverse().flat() : []),
  };
}

export const geminiTranscripts: HostTranscripts = {
  folders: (home, env) => {
    const base = env.GEMINI_CLI_HOME && env.GEMINI_CLI_HOME.startsWith('/') ? env.GEMINI_CLI_HOME : home;
    return [join(base, '.gemini', 'tmp')];
  },
  collector: geminiTurnCollector,
};
