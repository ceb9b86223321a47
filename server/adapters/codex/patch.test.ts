import { describe, expect, it } from 'vitest';
import { patchPaths } from './patch.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

describe('patchPaths', () => {
  it('reads added, deleted and updated files in order', () => {
    expect(patchPaths(patch(
      '*** Add File: src/new.ts', '+export const x = 1;',
      '*** Update File: a.txt', '@@', '-beta', '+gamma',
      '*** Delete File: old/gone.md',
    ))).toEqual(['src/new.ts', 'a.txt', 'old/gone.md']);
  });

  it('names both ends of a move', () => {
    expect(patchPaths(patch('*** Update File: docs/old.md', '*** Move to: docs/new.md', '@@', '-a', '+b')))
      .toEqual(['docs/old.md', 'docs/new.md']);
  });

  it('keeps absolute paths and names with spaces as written, each once', () => {
    expect(patchPaths(patch('*** Update File: /w/my notes.txt', '@@', '-a', '+b', '*** Update File: /w/my notes.txt', '@@', '-b', '+c')))
      .toEqual(['/w/my notes.txt']);
  });

  it('does not take a hunk line that looks like a header for one', () => {
    expect(patchPaths(patch('*** Update File: a.md', '@@', '-*** Delete File: b.md', '+*** Add File: c.md')))
      .toEqual(['a.md']);
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
