// Reads one turn of a Claude Code transcript (JSONL, one entry per line): what the assistant
// wrote and which tools it called after the turn's prompt, in order. Assistant entries are
// `{type: "assistant", message: {id?, content}}` where content is a string or an array of
// parts; Claude Code writes one API message as several lines (one per part, sharing
// `message.id`). A prompt is a user entry with text and no tool result (tool results are
// user entries too); meta entries and a subagent's side chain are neither. Claude Code keeps
// them under its projects folder (`~/.claude/projects/`, or `$CLAUDE_CONFIG_DIR/projects/`):
// the core reads nothing elsewhere, backwards from the end, bounded (core/transcript/).
import { join } from 'node:path';
import type { TranscriptItem } from '../../core/chat.js';
import type { HostTranscripts, TurnCollector } from '../../core/host.js';

export type { TranscriptItem } from '../../core/chat.js';

type Line = { kind: 'assistant'; items: TranscriptItem[] } | { kind: 'prompt'; text: string } | { kind: 'other' };

type Json = Record<string, unknown>;

const isPart = (part: unknown, type: string): part is Json =>
  typeof part === 'object' && part !== null && (part as { type?: unknown }).type === type;

/** A person's prompt, as opposed to the tool results Claude Code also files as user entries. */
function promptText(message: Json): string | null {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.some((part) => isPart(part, 'tool_result'))) return null;
  const texts = content
    .filter((part) => isPart(part, 'text') && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : null;
}

function assistantItems(message: Json): TranscriptItem[] {
  const { id, content } = message;
  const messageId = typeof id === 'string' ? id : null;
  if (typeof content === 'string') return content.trim() === '' ? [] : [{ kind: 'text', messageId, text: content }];
  if (!Array.isArray(content)) return [];
  const items: TranscriptItem[] = [];
  for (const part of content) {
    if (isPart(part, 'text') && typeof part.text === 'string' && part.text.trim() !== '') {
      items.push({ kind: 'text', messageId, text: part.text });
    } else if (isPart(part, 'tool_use') && typeof part.name === 'string') {
      const input = typeof part.input === 'object' && part.input !== null ? (part.input as Json) : {};
      items.push({ kind: 'tool', id: typeof part.id === 'string' ? part.id : null, name: part.name, input });
    }
  }
  return items;
}

function classify(line: string): Line {
  if (!line.includes('"assistant"') && !line.includes('"user"')) return { kind: 'other' };
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  if (typeof entry !== 'object' || entry === null) return { kind: 'other' };
  const { type, message, isMeta, isSidechain, origin } = entry as Json;
  if (typeof message !== 'object' || message === null || isSidechain === true) return { kind: 'other' };
  if (type === 'user') {
    // Claude Code's own prompt when a background subagent is done: part of the turn, not a new one.
    const own =
      isMeta === true ||
      (typeof origin === 'object' && origin !== null && (origin as Json).kind === 'task-notification');
    const text = own ? null : promptText(message as Json);
    return text === null ? { kind: 'other' } : { kind: 'prompt', text };
  }
  return type === 'assistant' ? { kind: 'assistant', items: assistantItems(message as Json) } : { kind: 'other' };
}

/**
 * Collects the items after the turn's prompt and before the next prompt, from lines given last
 * first. `prompt` names the turn (the prompt of a later turn may already be written when a turn
 * is finished late); null takes the last prompt's turn.
 */
export function turnCollector(prompt: string | null): TurnCollector {
  let segment: TranscriptItem[][] = [];
  let found = false;
  return {
    take(text: string): boolean {
      const line = classify(text);
      if (line.kind === 'assistant') segment.push(line.items);
      if (line.kind !== 'prompt') return false;
      if (prompt === null || line.text.trim() === prompt.trim()) return (found = true);
      segment = [];
      return false;
    },
    items: () => (found || prompt === null ? segment.slice().reverse().flat() : []),
  };
}

/** The turn of `lines` (in file order), and whether its prompt was among them. */
export function turnOfLines(lines: string[], prompt: string | null): { items: TranscriptItem[]; found: boolean } {
  const collector = turnCollector(prompt);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (collector.take(lines[i])) return { items: collector.items(), found: true };
  }
  return { items: collector.items(), found: false };
}

export const claudeCodeTranscripts: HostTranscripts = {
  folders: (home, env) => {
    const folders = [join(home, '.claude', 'projects')];
    const configDir = env.CLAUDE_CONFIG_DIR;
    if (configDir && configDir.startsWith('/')) folders.push(join(configDir, 'projects'));
    return folders;
  },
  collector: turnCollector,
};
