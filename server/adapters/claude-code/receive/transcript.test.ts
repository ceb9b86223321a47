import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastAssistantText, lastAssistantTextOfLines } from './transcript.js';
import { transcriptLines } from '../test/payloads.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'turnback-transcript-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('lastAssistantText', () => {
  it('returns the text parts of the last reply, not earlier turns or tool calls', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, transcriptLines([
      { prompt: 'one', reply: ['First reply.'] },
      { prompt: 'two', reply: ['Done: I added', 'the tests.'] },
    ]));
    expect(await lastAssistantText(file)).toBe('Done: I added\n\nthe tests.');
  });

  it('accepts content given as a plain string', () => {
    const lines = [JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'Plain reply' } })];
    expect(lastAssistantTextOfLines(lines).text).toBe('Plain reply');
  });

  it('skips broken lines, tool results and trailing entries without text', () => {
    const lines = [
      JSON.stringify({ type: 'user', message: { content: 'question' } }),
      JSON.stringify({ type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'The answer' }] } }),
      '{"type":"assistant", broken',
      JSON.stringify({ type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', name: 'Bash' }] } }),
      JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'out' }] }] } }),
    ];
    expect(lastAssistantTextOfLines(lines)).toEqual({ text: 'The answer', complete: true });
  });

  it('never takes the previous turn\'s reply when the current one is not written yet', async () => {
    const file = join(dir, 'lagging.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'one', reply: ['First reply.'] }]) +
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } }) + '\n');
    expect(await lastAssistantText(file)).toBeNull();
  });

  it('finds a reply far before the end of a large transcript', async () => {
    const file = join(dir, 'big.jsonl');
    const filler = JSON.stringify({ type: 'progress', data: 'x'.repeat(1000) });
    await writeFile(file, transcriptLines([{ prompt: 'p', reply: ['Early reply'] }]) + `${filler}\n`.repeat(600));
    expect(await lastAssistantText(file)).toBe('Early reply');
  });

  it('reads only an absolute path to a regular file', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'one', reply: ['A reply.'] }]));
    expect(await lastAssistantText(file)).toBe('A reply.');
    expect(await lastAssistantText(relative(process.cwd(), file))).toBeNull();
    expect(await lastAssistantText(dir)).toBeNull();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    // A FIFO with no writer would block a plain open forever.
    expect(await lastAssistantText(fifo)).toBeNull();
  });

  it('returns null for a missing file or a transcript without replies', async () => {
    expect(await lastAssistantText(join(dir, 'missing.jsonl'))).toBeNull();
    const file = join(dir, 'empty.jsonl');
    await writeFile(file, JSON.stringify({ type: 'user', message: { content: 'hi' } }) + '\n');
    expect(await lastAssistantText(file)).toBeNull();
  });
});
