// A write over a file in place keeps its inode and leaves exactly the bytes and mode asked for;
// it writes only the file the caller saw, and declines (the caller renames instead) wherever
// writing the inode would reach more than that path: another hard link, a set-id file, a file
// it may not open for writing. A swap at the name meanwhile is never followed or waited on.
import nodeFs from 'node:fs';
import { chmod, link, lstat, mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DestinationChangedError } from './atomic-write.js';
import { EngineFs } from './fs.js';
import { CutShortError, NotInPlaceError } from './overwrite.js';
import { seenOf, unchangedSince } from '../state/seen.js';

let base: string;
let ws: string;
let fs: EngineFs;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'turnback-overwrite-'));
  ws = join(base, 'ws');
  await mkdir(ws);
  fs = new EngineFs();
  fs.addRoot(ws);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** `replaces` for the file as it is now: true while it still shows this very lstat. */
async function asNow(p: string) {
  const seen = seenOf(await lstat(p), Date.now());
  return (now: nodeFs.Stats | undefined) => unchangedSince(seen, now ?? null);
}

describe('a write over a file in place', () => {
  it.each([
    ['a shorter content', 'a much longer original content\n', 'short\n'],
    ['a longer content', 'short\n', 'a much longer restored content\n'],
    ['an empty content', 'something\n', ''],
  ])('leaves %s exactly, in the same inode', async (_name, before, after) => {
    const p = join(ws, 'f');
    await writeFile(p, before);
    const { ino } = await lstat(p);
    await fs.overwrite(p, Buffer.from(after), 0o644, { replaces: await asNow(p) });
    expect(await readFile(p, 'utf8')).toBe(after);
    expect((await lstat(p)).ino).toBe(ino);
  });

  it.each(['600', '755', '4755', '2750'])('gives mode %s', async (octal) => {
    const mode = parseInt(octal, 8);
    const p = join(ws, 'f');
    await writeFile(p, 'old\n', { mode: 0o644 });
    await chmod(p, 0o644);
    await fs.overwrite(p, Buffer.from('new\n'), mode, { replaces: await asNow(p) });
    expect((await lstat(p)).mode & 0o7777).toBe(mode);
  });

  /** A file `make` left as `old` is declined (NotInPlaceError) and keeps its bytes. */
  async function declined(make: (p: string) => Promise<void>): Promise<string> {
    const p = join(ws, 'f');
    await writeFile(p, 'old\n');
    await make(p);
    await expect(fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces: await asNow(p) })).rejects.toBeInstanceOf(
      NotInPlaceError,
    );
    expect(await readFile(p, 'utf8')).toBe('old\n');
    return p;
  }

  it('declines a file with another hard link: the other name keeps its bytes', async () => {
    await declined((p) => link(p, join(base, 'elsewhere')));
    expect(await readFile(join(base, 'elsewhere'), 'utf8')).toBe('old\n');
  });

  it('declines a set-id file: no set-id bit stands on a half-written file', async () => {
    await declined((p) => chmod(p, 0o4755));
  });

  it('declines a file it may not open for writing (as a user other than root)', async (t) => {
    if (process.getuid?.() === 0) return t.skip();
    await declined((p) => chmod(p, 0o444));
  });

  it('leaves a file changed since the caller saw it as it is', async () => {
    const p = join(ws, 'f');
    await writeFile(p, 'seen\n');
    const replaces = await asNow(p);
    await writeFile(p, 'a person typed this meanwhile\n');
    await expect(fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces })).rejects.toBeInstanceOf(
      DestinationChangedError,
    );
    expect(await readFile(p, 'utf8')).toBe('a person typed this meanwhile\n');
  });

  it('checks the content it must still hold through the open file, and leaves another as it is', async () => {
    const p = join(ws, 'f');
    await writeFile(p, 'seen\n');
    const seenHash = createHash('sha256').update('seen\n').digest('hex');
    const holdsSeen = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex') === seenHash;
    // The same size, and a check that cannot tell them apart by their lstat: only the content does.
    await writeFile(p, 'SEEN\n');
    const any = () => true;
    await expect(
      fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces: any, holds: holdsSeen }),
    ).rejects.toBeInstanceOf(DestinationChangedError);
    expect(await readFile(p, 'utf8')).toBe('SEEN\n');
    await writeFile(p, 'seen\n');
    await fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces: any, holds: holdsSeen });
    expect(await readFile(p, 'utf8')).toBe('new\n');
  });

  it('never follows a link swapped in at the name', async () => {
    const p = join(ws, 'f');
    await writeFile(p, 'seen\n');
    const replaces = await asNow(p);
    await writeFile(join(base, 'outside'), 'outside the root\n');
    await unlink(p);
    await symlink(join(base, 'outside'), p);
    await expect(fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces })).rejects.toBeInstanceOf(
      DestinationChangedError,
    );
    expect(await readFile(join(base, 'outside'), 'utf8')).toBe('outside the root\n');
  });

  it('never waits on a FIFO swapped in at the name', async () => {
    const p = join(ws, 'f');
    await writeFile(p, 'seen\n');
    const replaces = await asNow(p);
    await unlink(p);
    execFileSync('mkfifo', [p]);
    await expect(fs.overwrite(p, Buffer.from('new\n'), 0o644, { replaces })).rejects.toBeInstanceOf(
      DestinationChangedError,
    );
    expect((await lstat(p)).isFIFO()).toBe(true);
  });

  it('a step that fails once the write began is CutShortError, naming the inode written', async () => {
    const p = join(ws, 'f');
    await writeFile(p, 'a longer original content\n');
    const { ino } = await lstat(p);
    const failing = new EngineFs({
      beforeOp: (op) => {
        if (op === 'truncate') throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
      },
    });
    failing.addRoot(ws);
    const cut = await failing.overwrite(p, Buffer.from('new\n'), 0o644, { replaces: await asNow(p) }).catch((e) => e);
    expect(cut).toBeInstanceOf(CutShortError);
    expect((cut as CutShortError).written.ino).toBe(ino);
    expect(((cut as CutShortError).reason as NodeJS.ErrnoException).code).toBe('EIO');
    // Part new, part old: what the caller then mends (content/write-back.ts).
    expect(await readFile(p, 'utf8')).toBe('new\nnger original content\n');
  });
});
