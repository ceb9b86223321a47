import { appendFile, mkdir, mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTranscriptTurn } from '../../core/transcript/read.js';
import { settleTurn } from '../../core/transcript/settle.js';
import { claudeCodeTranscripts, turnOfLines } from './transcript.js';
import { transcriptLines } from '../test/payloads.js';

let home: string;
/** A project folder under Claude Code's projects folder: the only place its transcripts are read. */
let dir: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'turnback-transcript-'));
  dir = join(home, '.claude', 'projects', '-home-dev-project');
  await mkdir(dir, { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const place = () => ({ home, env: {} });
const readTurnTranscript = (path: string, prompt: string | null) =>
  readTranscriptTurn(claudeCodeTranscripts, path, prompt, place());
const readSettledTurnTranscript = async (path: string, prompt: string | null, ids: Set<string>) =>
  (await settleTurn(claudeCodeTranscripts, path, prompt, ids, place()))?.items ?? null;

const texts = (items: { kind: string; text?: string; name?: string }[] | null) =>
  items?.map((item) => (item.kind === 'text' ? item.text : `tool ${item.name}`)) ?? null;
const turnItems = async (path: string, prompt: string | null) =>
  (await readTurnTranscript(path, prompt))?.items ?? null;

describe('readTurnTranscript', () => {
  it('returns every text part and tool call of the turn, in order, and nothing of earlier turns', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(
      file,
      transcriptLines([
        { prompt: 'one', reply: ['First reply.'] },
        { prompt: 'two', reply: ['Done: I added', 'the tests.'] },
      ]),
    );
    expect(texts(await turnItems(file, 'two'))).toEqual([
      'I will write it.',
      'tool Write',
      'Done: I added',
      'the tests.',
    ]);
    expect(texts(await turnItems(file, null))).toEqual([
      'I will write it.',
      'tool Write',
      'Done: I added',
      'the tests.',
    ]);
  });

  it('finds the named turn when a later prompt is already written', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(
      file,
      transcriptLines([
        { prompt: 'one', reply: ['First reply.'] },
        { prompt: 'two', reply: [] },
      ]),
    );
    expect(texts(await turnItems(file, 'one'))).toEqual(['I will write it.', 'tool Write', 'First reply.']);
  });

  it('returns nothing for a named turn the transcript does not hold', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'one', reply: ['First reply.'] }]));
    expect(await turnItems(file, 'never asked')).toEqual([]);
  });

  it('accepts content given as a plain string, and skips meta, side-chain and broken lines and tool results', () => {
    const lines = [
      JSON.stringify({ type: 'user', message: { content: 'question' } }),
      JSON.stringify({ type: 'user', isMeta: true, message: { content: 'Caveat: local command output' } }),
      JSON.stringify({ type: 'user', isSidechain: true, message: { content: 'a subagent task' } }),
      JSON.stringify({ type: 'assistant', message: { id: 'm1', content: 'Plain reply' } }),
      '{"type":"assistant", broken',
      JSON.stringify({
        type: 'assistant',
        message: { id: 'm2', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] },
      }),
      JSON.stringify({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'out' }] }] },
      }),
    ];
    expect(turnOfLines(lines, 'question')).toEqual({
      found: true,
      items: [
        { kind: 'text', messageId: 'm1', text: 'Plain reply' },
        { kind: 'tool', id: null, name: 'Bash', input: { command: 'ls' } },
      ],
    });
  });

  it('finds a turn far before the end of a large transcript', async () => {
    const file = join(dir, 'big.jsonl');
    const filler = JSON.stringify({ type: 'progress', data: 'x'.repeat(1000) });
    await writeFile(file, transcriptLines([{ prompt: 'p', reply: ['Early reply'] }]) + `${filler}\n`.repeat(600));
    expect(texts(await turnItems(file, 'p'))).toEqual(['I will write it.', 'tool Write', 'Early reply']);
  });

  it('reads only an absolute path to a regular file', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'one', reply: ['A reply.'] }]));
    expect(texts(await turnItems(file, 'one'))).toContain('A reply.');
    expect(await readTurnTranscript(relative(process.cwd(), file), 'one')).toBeNull();
    expect(await readTurnTranscript(dir, 'one')).toBeNull();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    // A FIFO with no writer would block a plain open forever.
    expect(await readTurnTranscript(fifo, 'one')).toBeNull();
  });

  it('returns null for a missing file, nothing for a transcript without replies', async () => {
    expect(await readTurnTranscript(join(dir, 'missing.jsonl'), 'hi')).toBeNull();
    const file = join(dir, 'empty.jsonl');
    await writeFile(file, JSON.stringify({ type: 'user', message: { content: 'hi' } }) + '\n');
    expect(await turnItems(file, 'hi')).toEqual([]);
  });

  it('tells the size and mtime of what it read', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'one', reply: ['A reply.'] }]));
    const { size, mtimeMs } = await stat(file);
    expect(await readTurnTranscript(file, 'one')).toMatchObject({ size, mtimeMs });
  });
});

describe('readSettledTurnTranscript', () => {
  const toolLine = (id: string) =>
    `${JSON.stringify({ type: 'assistant', message: { id: 'm', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }] } })}\n`;
  const promptLine = `${JSON.stringify({ type: 'user', message: { content: 'go' } })}\n`;

  it('reads again once a line is appended, until every announced tool call is there', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, promptLine + toolLine('toolu_a'));
    const settled = readSettledTurnTranscript(file, 'go', new Set(['toolu_a', 'toolu_b']));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await appendFile(file, toolLine('toolu_b'));
    expect((await settled)?.map((item) => item.kind === 'tool' && item.id)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('reads nothing again while the size and mtime stay as they were', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, promptLine + toolLine('toolu_a'));
    await utimes(file, 1_000_000, 1_000_000);
    const settled = readSettledTurnTranscript(file, 'go', new Set(['toolu_b']));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Not how Claude Code writes (it appends): a file of the same size and mtime put in its place.
    const other = join(dir, 'other.jsonl');
    await writeFile(other, promptLine + toolLine('toolu_b'));
    await utimes(other, 1_000_000, 1_000_000);
    await rename(other, file);
    expect((await settled)?.map((item) => item.kind === 'tool' && item.id)).toEqual(['toolu_a']);
  });
});
