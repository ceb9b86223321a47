import { describe, expect, it } from 'vitest';
import { chatOf, MAX_CHAT_MESSAGES, toolLine } from './chat.js';
import type { TranscriptItem } from '../../core/chat.js';

const ws = '/home/dev/project';
const text = (t: string, messageId: string | null = 'm1'): TranscriptItem => ({ kind: 'text', messageId, text: t });
const tool = (name: string, input: Record<string, unknown>): TranscriptItem => ({
  kind: 'tool',
  id: null,
  name,
  input,
});

describe('toolLine', () => {
  it('names a tool and its target as Claude Code prints them', () => {
    expect(toolLine('Bash', { command: 'npm test' }, ws)).toBe('Bash(npm test)');
    expect(toolLine('Edit', { file_path: `${ws}/src/app.ts`, old_string: 'a' }, ws)).toBe('Edit(src/app.ts)');
    expect(toolLine('Write', { file_path: '/etc/hosts' }, ws)).toBe('Write(/etc/hosts)');
    expect(toolLine('NotebookEdit', { notebook_path: `${ws}/n.ipynb` }, ws)).toBe('NotebookEdit(n.ipynb)');
    expect(toolLine('Agent', { description: 'edit stuff', prompt: 'long task' }, ws)).toBe('Agent(edit stuff)');
    expect(toolLine('mcp__db__query', { limit: 3, sql: 'select 1' }, ws)).toBe('mcp__db__query(select 1)');
    expect(toolLine('TaskList', {}, ws)).toBe('TaskList()');
  });

  it('keeps to one line, cut by code points', () => {
    expect(toolLine('Bash', { command: "cat > a.txt <<'EOF'\nhello\nEOF" }, ws)).toBe("Bash(cat > a.txt <<'EOF' …)");
    expect(toolLine('Bash', { command: '😀'.repeat(300) }, ws)).toBe(`Bash(${'😀'.repeat(200)}…)`);
  });
});

describe('chatOf', () => {
  it('keeps every text block and a line per tool call, in order', () => {
    const items = [text('Looking.', 'm1'), tool('Read', { file_path: `${ws}/a.ts` }), text('Fixed it.', 'm2')];
    expect(chatOf(items, 'Fixed it.', ws)).toEqual([
      { role: 'assistant', content: 'Looking.' },
      { role: 'tool', content: 'Read(a.ts)' },
      { role: 'assistant', content: 'Fixed it.' },
    ]);
  });

  it('adds the reply Stop carries only when the transcript does not hold it yet', () => {
    const split = [text('Done:', 'm2'), text('all of it.', 'm2')];
    expect(chatOf(split, 'Done:\n\nall of it.', ws)).toHaveLength(2);
    expect(chatOf(split, 'all of it.', ws)).toHaveLength(2);
    expect(chatOf([tool('Bash', { command: 'ls' })], 'Not written yet.', ws).at(-1)).toEqual({
      role: 'assistant',
      content: 'Not written yet.',
    });
  });

  it('sums up a turn of thousands of tool calls, keeping the last reply', () => {
    const items = [...Array.from({ length: 3000 }, () => tool('Bash', { command: 'ls' })), text('Finally.')];
    const chat = chatOf(items, null, ws);
    expect(chat).toHaveLength(MAX_CHAT_MESSAGES);
    expect(chat.at(-2)).toEqual({
      role: 'system',
      content: `(${3001 - (MAX_CHAT_MESSAGES - 2) - 1} more messages not recorded)`,
    });
    expect(chat.at(-1)).toEqual({ role: 'assistant', content: 'Finally.' });
  });
});
