// The patch text of one file's change: git's headers around jsdiff's hunks.
import { describe, expect, it } from 'vitest';
import type { Diff, FileChange, Side } from '../../protocol.js';
import { paint } from './io.js';
import { colourDiff, unifiedDiff, wholeFileHunk } from './unified-diff.js';

const text = (value: string): Side => ({
  exists: true,
  binary: false,
  tooLarge: false,
  truncated: false,
  size: value.length,
  text: value,
});
const absent: Side = { exists: false, binary: false, tooLarge: false, truncated: false, size: 0, text: null };
const binary: Side = { exists: true, binary: true, tooLarge: false, truncated: false, size: 4, text: null };
const file = (mode: number) => ({ type: 'file' as const, hash: 'h', size: 1, mode });
const change = (partial: Partial<FileChange>): FileChange => ({
  uri: 'workspace:/x',
  change: 'modified',
  before: file(0o644),
  after: file(0o644),
  ...partial,
});
const name = (uri: string) => uri.replace(/^workspace:\//, '');

describe('unifiedDiff', () => {
  it('writes a symlink as git does: mode 120000, its target as the text', () => {
    const link = (target: string) => ({ type: 'symlink' as const, target });
    const linkSide: Side = { exists: true, binary: false, tooLarge: false, truncated: false, size: 0, text: null };
    expect(
      unifiedDiff(
        { uri: 'workspace:/current', before: absent, after: linkSide },
        change({ uri: 'workspace:/current', before: null, after: link('releases/v2'), change: 'created' }),
        name,
      ),
    ).toBe(
      [
        'diff --turnback a/current b/current',
        'new file mode 120000',
        '--- /dev/null',
        '+++ b/current',
        '@@ -0,0 +1,1 @@',
        '+releases/v2',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
    const retarget = unifiedDiff(
      { uri: 'workspace:/current', before: linkSide, after: linkSide },
      change({ uri: 'workspace:/current', before: link('releases/v1'), after: link('releases/v2') }),
      name,
    );
    expect(retarget).toContain('-releases/v1\n\\ No newline at end of file\n+releases/v2');
    expect(retarget).not.toContain('Binary');
  });

  it('writes a modification as git does, a missing final newline marked', () => {
    const diff: Diff = { uri: 'workspace:/src/a.ts', before: text('a\nb\nc\n'), after: text('a\nB\nc') };
    expect(unifiedDiff(diff, change({ uri: diff.uri }), name)).toBe(
      [
        'diff --turnback a/src/a.ts b/src/a.ts',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,3 +1,3 @@',
        ' a',
        '-b',
        '-c',
        '+B',
        '+c',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });

  it('writes creation and deletion against /dev/null with the file mode', () => {
    expect(
      unifiedDiff(
        { uri: 'workspace:/n', before: absent, after: text('x\n') },
        change({ before: null, after: file(0o755), change: 'created' }),
        name,
      ),
    ).toBe(
      ['diff --turnback a/n b/n', 'new file mode 755', '--- /dev/null', '+++ b/n', '@@ -0,0 +1,1 @@', '+x', ''].join(
        '\n',
      ),
    );
    expect(
      unifiedDiff(
        { uri: 'workspace:/n', before: text('x\n'), after: absent },
        change({ after: null, change: 'deleted' }),
        name,
      ),
    ).toBe(
      [
        'diff --turnback a/n b/n',
        'deleted file mode 644',
        '--- a/n',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-x',
        '',
      ].join('\n'),
    );
  });

  it('writes a rename and a mode change without hunks when the text is the same', () => {
    expect(
      unifiedDiff(
        { uri: 'workspace:/new', from: 'workspace:/old', before: text('same\n'), after: text('same\n') },
        change({ uri: 'workspace:/new', from: 'workspace:/old', change: 'renamed' }),
        name,
      ),
    ).toBe(['diff --turnback a/old b/new', 'rename from old', 'rename to new', ''].join('\n'));
    expect(
      unifiedDiff(
        { uri: 'workspace:/run.sh', before: text('x\n'), after: text('x\n') },
        change({ before: file(0o644), after: file(0o755), change: 'mode-changed' }),
        name,
      ),
    ).toBe(['diff --turnback a/run.sh b/run.sh', 'old mode 644', 'new mode 755', ''].join('\n'));
  });

  it('says a binary or too large side differs instead of printing it, same size or not', () => {
    expect(unifiedDiff({ uri: 'workspace:/i.png', before: binary, after: binary }, change({}), name)).toBe(
      ['diff --turnback a/i.png b/i.png', 'Binary files a/i.png and b/i.png differ (binary)', ''].join('\n'),
    );
    expect(
      unifiedDiff(
        { uri: 'workspace:/big', before: absent, after: { ...absent, exists: true, tooLarge: true } },
        change({ before: null, after: file(0o600) }),
        name,
      ),
    ).toBe(
      [
        'diff --turnback a/big b/big',
        'new file mode 600',
        'Binary files /dev/null and b/big differ (too large to show)',
        '',
      ].join('\n'),
    );
  });

  it('colours only on request', () => {
    const patch = unifiedDiff({ uri: 'workspace:/a', before: text('a\n'), after: text('b\n') }, undefined, name);
    expect(colourDiff(patch, paint(false))).toBe(patch);
    expect(colourDiff(patch, paint(true))).toContain('\x1b[31m-a\x1b[39m\n\x1b[32m+b\x1b[39m');
  });
});

describe('a diff past its time bound', () => {
  it('is one hunk replacing every line, as jsdiff writes it for unrelated texts', async () => {
    const { createTwoFilesPatch } = await import('diff');
    for (const [before, after] of [
      ['a\nb\n', 'c\nd\ne\n'],
      ['', 'x\ny'],
      ['only\n', ''],
      ['p\nq', 'r\n'],
    ]) {
      const jsdiff = createTwoFilesPatch('a/f', 'b/f', before, after, undefined, undefined, { context: 3 })
        .split('\n')
        .slice(3)
        .filter((line) => line !== '');
      expect(wholeFileHunk(before, after)).toEqual(jsdiff);
    }
  });

  it('is taken when jsdiff gives up, so an unrelated rewrite of a large file still prints promptly', () => {
    const lines = (word: string) => Array.from({ length: 5000 }, (_, i) => `${word} ${i}`).join('\n') + '\n';
    const started = performance.now();
    const patch = unifiedDiff(
      { uri: 'workspace:/big.txt', before: text(lines('old')), after: text(lines('new')) },
      change({}),
      name,
      50,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    const body = patch.split('\n');
    expect(body.slice(0, 4)).toEqual([
      'diff --turnback a/big.txt b/big.txt',
      '--- a/big.txt',
      '+++ b/big.txt',
      '@@ -1,5000 +1,5000 @@',
    ]);
    expect(body.filter((line) => line.startsWith('-old')).length).toBe(5000);
    expect(body.filter((line) => line.startsWith('+new')).length).toBe(5000);
  });
});
