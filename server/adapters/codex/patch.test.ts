import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patchPaths } from './patch.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

describe('patchPaths', () => {
  it('reads added, deleted and updated files in order', () => {
    expect(
      patchPaths(
        patch(
          '*** Add File: src/new.ts',
          '+export const x = 1;',
          '*** Update File: a.txt',
          '@@',
          '-beta',
          '+gamma',
          '*** Delete File: old/gone.md',
        ),
      ),
    ).toEqual(['src/new.ts', 'a.txt', 'old/gone.md']);
  });

  it('names both ends of a move', () => {
    expect(patchPaths(patch('*** Update File: docs/old.md', '*** Move to: docs/new.md', '@@', '-a', '+b'))).toEqual([
      'docs/old.md',
      'docs/new.md',
    ]);
  });

  it('keeps absolute paths and names with spaces as written, each once', () => {
    expect(
      patchPaths(
        patch(
          '*** Update File: /w/my notes.txt',
          '@@',
          '-a',
          '+b',
          '*** Update File: /w/my notes.txt',
          '@@',
          '-b',
          '+c',
        ),
      ),
    ).toEqual(['/w/my notes.txt']);
  });

  it('does not take a hunk line that looks like a header for one', () => {
    expect(patchPaths(patch('*** Update File: a.md', '@@', '-*** Delete File: b.md', '+*** Add File: c.md'))).toEqual([
      'a.md',
    ]);
  });

  it('reads CRLF patches', () => {
    expect(patchPaths('*** Begin Patch\r\n*** Add File: x.txt\r\n+x\r\n*** End Patch\r\n')).toEqual(['x.txt']);
  });

  it('answers null for what it cannot read, so the tool is scanned instead', () => {
    expect(patchPaths('')).toBeNull();
    expect(patchPaths('echo hi')).toBeNull();
    expect(patchPaths(patch())).toBeNull();
    expect(patchPaths(patch('*** Add File: '))).toBeNull();
  });
});

describe('patchPaths on generated patches', () => {
  // The class holds a combining accent on purpose: names in NFD must pass through a patch as they are.
  // eslint-disable-next-line no-misleading-character-class
  const name = fc.stringMatching(/^[a-zA-Z0-9 ._\u00e9\u0301-]{1,12}$/).filter((n) => n.trim() === n && n !== '');
  const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
  /** Hunk lines that may look like headers, as a patch of a patch would hold. */
  const hunk = fc.array(
    fc.oneof(
      fc.constantFrom(
        '@@',
        '@@ function x',
        ' *** Delete File: a',
        '+*** Add File: b',
        '-*** Move to: c',
        ' plain',
        '+',
        '-',
      ),
      path.map((p) => `+*** Update File: ${p}`),
    ),
    { maxLength: 4 },
  );
  const op = fc.oneof(
    fc.record({ kind: fc.constant('Add File'), path, lines: hunk }),
    fc.record({ kind: fc.constant('Delete File'), path, lines: fc.constant([] as string[]) }),
    fc.record({ kind: fc.constant('Update File'), path, lines: hunk, to: fc.option(path, { nil: undefined }) }),
  );

  it('names every file an operation header names, in order, once, and nothing from inside a hunk', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 6 }), (ops) => {
        const body = ops.flatMap((o) => [
          `*** ${o.kind}: ${o.path}`,
          ...('to' in o && o.to ? [`*** Move to: ${o.to}`] : []),
          ...o.lines,
        ]);
        const expected = [...new Set(ops.flatMap((o) => [o.path, ...('to' in o && o.to ? [o.to] : [])]))];
        expect(patchPaths(patch(...body))).toEqual(expected);
      }),
    );
  });
});
