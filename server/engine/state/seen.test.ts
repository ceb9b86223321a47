// A stat is trusted to mean "the content planning read" only once the file's last change lies
// further back than the racy margin, and a path still shows what was seen only
// with every field the same (a directory by inode and mode).
import nodeFs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Seen, seenOf, trustworthy, unchangedSince } from './seen.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnback-seen-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (mtimeMs: number, ctimeMs: number, atMs: number): Seen => ({
  ino: 1,
  dev: 1,
  size: 1,
  mtimeMs,
  ctimeMs,
  mode: 0o100644,
  atMs,
});

describe('a seen stat', () => {
  it("is trusted only 2 s after the file's last change, of its content or of its inode", () => {
    expect(trustworthy(at(1_000, 1_000, 1_200))).toBe(false);
    expect(trustworthy(at(1_000, 1_000, 2_900))).toBe(false);
    expect(trustworthy(at(1_000, 1_000, 3_100))).toBe(true);
    expect(trustworthy(at(1_000, 2_000, 3_100))).toBe(false);
  });

  it('still matches an untouched file, and not one rewritten, replaced or gone', async () => {
    const f = join(dir, 'f');
    await writeFile(f, 'one');
    const seen = seenOf(nodeFs.lstatSync(f), Date.now());
    expect(unchangedSince(seen, nodeFs.lstatSync(f))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    nodeFs.writeFileSync(f, 'two');
    expect(unchangedSince(seen, nodeFs.lstatSync(f))).toBe(false);
    const again = seenOf(nodeFs.lstatSync(f), Date.now());
    nodeFs.writeFileSync(join(dir, 'g'), 'two');
    nodeFs.renameSync(join(dir, 'g'), f);
    expect(unchangedSince(again, nodeFs.lstatSync(f))).toBe(false);
    expect(unchangedSince(again, null)).toBe(false);
    expect(unchangedSince(null, null)).toBe(true);
    expect(unchangedSince(null, nodeFs.lstatSync(f))).toBe(false);
  });

  it('of a directory ignores its times (files made inside it move them), not its mode', async () => {
    const seen = seenOf(nodeFs.lstatSync(dir), Date.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(dir, 'inside'), 'x');
    expect(unchangedSince(seen, nodeFs.lstatSync(dir))).toBe(true);
    nodeFs.chmodSync(dir, (seen.mode & 0o777) === 0o755 ? 0o700 : 0o755);
    expect(unchangedSince(seen, nodeFs.lstatSync(dir))).toBe(false);
  });
});
