// readLinesBackwards gives a file's whole lines, last first, whatever the chunk size, and never
// reads past its bound.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLinesBackwards } from './tail.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnback-tail-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function linesOf(text: string, maxBytes: number, chunk: number): Promise<{ lines: string[]; bytesRead: number }> {
  const file = join(dir, 'f.jsonl');
  await writeFile(file, text);
  const handle = await open(file, 'r');
  try {
    const lines: string[] = [];
    const { bytesRead } = await readLinesBackwards(
      handle,
      Buffer.byteLength(text),
      maxBytes,
      (line) => {
        lines.push(line);
        return false;
      },
      chunk,
    );
    return { lines, bytesRead };
  } finally {
    await handle.close();
  }
}

describe('readLinesBackwards', () => {
  it('gives every non-empty line, last first, for any chunk size (multi-byte characters across chunks included)', async () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '{', '"', ' '), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        async (lines, trailing, chunk) => {
          const text = lines.join('\n') + (trailing ? '\n' : '');
          const { lines: got, bytesRead } = await linesOf(text, 1 << 20, chunk);
          expect(got).toEqual(lines.filter((l) => l !== '').reverse());
          expect(bytesRead).toBe(Buffer.byteLength(text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stops at the bound: a line it cannot see whole is not given', async () => {
    const text = `${'x'.repeat(50)}\nlast one\n`;
    const { lines, bytesRead } = await linesOf(text, 20, 4);
    expect(lines).toEqual(['last one']);
    expect(bytesRead).toBe(20);
  });

  it('stops as soon as it is told to', async () => {
    const file = join(dir, 'g.jsonl');
    await writeFile(file, 'a\nb\nc\n');
    const handle = await open(file, 'r');
    const seen: string[] = [];
    await readLinesBackwards(
      handle,
      6,
      100,
      (line) => {
        seen.push(line);
        return line === 'b';
      },
      1,
    );
    await handle.close();
    expect(seen).toEqual(['c', 'b']);
  });
});
