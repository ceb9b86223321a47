// Transcript reads are bounded (docs/api.md "Agent hosts"): only files inside the host's own
// folders, backwards no further than MAX_TRANSCRIPT_BYTES, a few at a time.
import { mkdir, mkdtemp, open, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscripts } from '../../claude-code/receive/transcript.js';
import { transcriptLines } from '../../claude-code/test/payloads.js';
import { allowedTranscript, MAX_TRANSCRIPT_BYTES, readTranscriptTurn } from './read.js';
import { TAIL_CHUNK_BYTES } from './tail.js';

let root: string;
let home: string;
let projects: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-transcripts-'));
  home = join(root, 'home');
  projects = join(home, '.claude', 'projects', '-work-project');
  await mkdir(projects, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const place = () => ({ home, env: {} });
const read = (path: string, prompt: string | null) => readTranscriptTurn(claudeCodeTranscripts, path, prompt, place());
const texts = (items: { kind: string; text?: string }[] | undefined) =>
  items?.filter((i) => i.kind === 'text').map((i) => i.text);

/** A sparse file of `size` bytes (holes read as zeros) ending with `tail`. */
async function sparse(path: string, size: number, tail = ''): Promise<void> {
  await writeFile(path, '');
  await truncate(path, size - Buffer.byteLength(tail));
  const file = await open(path, 'a');
  await file.write(tail);
  await file.close();
}

describe('where a transcript is read from', () => {
  it("only inside the host's folder: a path elsewhere, holding a matching turn, is never read", async () => {
    const outside = join(root, 'elsewhere.jsonl');
    const lines = transcriptLines([{ prompt: 'hi', reply: ['Secret.'] }]);
    await writeFile(outside, lines);
    await writeFile(join(projects, 's.jsonl'), lines);
    expect(texts((await read(join(projects, 's.jsonl'), 'hi'))?.items)).toContain('Secret.');
    expect(await read(outside, 'hi')).toBeNull();
    expect(await read('/etc/passwd', null)).toBeNull();
    expect(allowedTranscript(claudeCodeTranscripts, '/etc/shadow', place())).toBeNull();
    // Nor through a symlink inside it, nor `..` out of it, nor the folder itself.
    await symlink(outside, join(projects, 'link.jsonl'));
    expect(await read(join(projects, 'link.jsonl'), 'hi')).toBeNull();
    expect(await read(join(projects, '..', '..', '..', '..', 'elsewhere.jsonl'), 'hi')).toBeNull();
    expect(await read(join(home, '.claude', 'projects'), 'hi')).toBeNull();
  });

  it('inside $CLAUDE_CONFIG_DIR/projects when the server runs with it', async () => {
    const config = join(root, 'config');
    await mkdir(join(config, 'projects', 'p'), { recursive: true });
    const file = join(config, 'projects', 'p', 's.jsonl');
    await writeFile(file, transcriptLines([{ prompt: 'hi', reply: ['There.'] }]));
    expect(await read(file, 'hi')).toBeNull();
    const withConfig = await readTranscriptTurn(claudeCodeTranscripts, file, 'hi', {
      home,
      env: { CLAUDE_CONFIG_DIR: config },
    });
    expect(texts(withConfig?.items)).toContain('There.');
  });
});

describe('how much of a transcript is read', () => {
  it('a 2 GiB sparse transcript costs the bound, and its last turn is still found', async () => {
    const file = join(projects, 'huge.jsonl');
    await sparse(file, 2 * 1024 ** 3, `\n${transcriptLines([{ prompt: 'last', reply: ['At the end.'] }])}`);
    const found = await read(file, 'last');
    expect(texts(found?.items)).toContain('At the end.');
    expect(found!.bytesRead).toBeLessThanOrEqual(TAIL_CHUNK_BYTES);
    // A prompt it does not hold: read back to the bound, not the file's 2 GiB.
    const missing = await read(file, 'never asked');
    expect(missing?.items).toEqual([]);
    expect(missing!.bytesRead).toBe(MAX_TRANSCRIPT_BYTES);
  });

  it('a turn whose prompt lies past the bound gets nothing of the turns before', async () => {
    const file = join(projects, 'long.jsonl');
    const filler = `${JSON.stringify({ type: 'progress', data: 'x'.repeat(1000) })}\n`;
    await writeFile(
      file,
      transcriptLines([{ prompt: 'early', reply: ['Early.'] }]) +
        filler.repeat(Math.ceil(MAX_TRANSCRIPT_BYTES / filler.length) + 10),
    );
    expect(await read(file, 'early')).toMatchObject({ items: [], bytesRead: MAX_TRANSCRIPT_BYTES });
  });

  it('30 stops at once stay within a bounded memory (a few reads at a time)', { timeout: 120_000 }, async () => {
    const files: string[] = [];
    for (let i = 0; i < 30; i++) {
      const file = join(projects, `t${i}.jsonl`);
      await sparse(file, 256 * 1024 ** 2, `\n${transcriptLines([{ prompt: `p${i}`, reply: [`reply ${i}`] }])}`);
      files.push(file);
    }
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    // Each asks for a prompt it does not hold: every read goes back to the bound.
    const reads = await Promise.all(files.map((file) => read(file, 'not there')));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(reads.every((r) => r !== null && r.bytesRead === MAX_TRANSCRIPT_BYTES)).toBe(true);
    // Unbounded, that was 30 × 85 MiB read side by side (2.8 GiB RSS seen).
    expect(peak - before).toBeLessThan(256 * 1024 ** 2);
  });
});
