import { describe, expect, it } from 'vitest';
import { childUri, formatUri, isBelowAny, isSameOrBelow, parentUri, parseUri } from './uri.js';

describe('URI grammar', () => {
  it.each([
    ['workspace:/a.txt', 'workspace', ['a.txt']],
    ['workspace:/src/app.ts', 'workspace', ['src', 'app.ts']],
    ['workspace:/', 'workspace', []],
    ['custom-1:/dir with space/ünï.txt', 'custom-1', ['dir with space', 'ünï.txt']],
    ['data:/.hidden', 'data', ['.hidden']],
    ['workspace:/a..b', 'workspace', ['a..b']],
  ])('accepts %s', (uri, root, segments) => {
    expect(parseUri(uri)).toEqual({ root, segments });
    expect(formatUri(root, segments)).toBe(uri);
  });

  it.each([
    ['', 'empty'],
    ['workspace', 'no separator'],
    ['workspace:', 'no slash'],
    ['workspace:a.txt', 'no slash after the colon'],
    ['workspace://a.txt', 'empty segment'],
    ['workspace:/a//b', 'empty segment inside'],
    ['workspace:/a/', 'trailing slash'],
    ['workspace:/./a', 'dot segment'],
    ['workspace:/a/..', 'dot-dot segment'],
    ['workspace:/../etc/passwd', 'escape by dot-dot'],
    ['workspace:/a\\b', 'backslash'],
    ['workspace:/a\0b', 'NUL'],
    [':/a', 'no root'],
    ['1ws:/a', 'root starting with a digit'],
    ['w s:/a', 'space in the root'],
  ])('refuses %j (%s) with BAD_URI', (uri) => {
    expect(() => parseUri(uri)).toThrow(expect.objectContaining({ code: 'BAD_URI' }));
  });

  it('refuses what is not a string', () => {
    expect(() => parseUri(42)).toThrow(expect.objectContaining({ code: 'BAD_URI' }));
  });

  it('walks parents and children', () => {
    expect(parentUri('workspace:/a/b')).toBe('workspace:/a');
    expect(parentUri('workspace:/a')).toBe('workspace:/');
    expect(parentUri('workspace:/')).toBeNull();
    expect(childUri('workspace:/', 'a')).toBe('workspace:/a');
    expect(childUri('workspace:/a', 'b')).toBe('workspace:/a/b');
    expect(isSameOrBelow('workspace:/a/b', 'workspace:/a')).toBe(true);
    expect(isSameOrBelow('workspace:/ab', 'workspace:/a')).toBe(false);
    expect(isSameOrBelow('workspace:/a', 'workspace:/')).toBe(true);
  });

  it('tells a path strictly below any of a set of folders, as isSameOrBelow one by one does', () => {
    const dirs = ['workspace:/a', 'workspace:/x:/y', 'workspace:/n:', 'other:/', 'workspace:/deep/er/still'];
    const uris = [
      'workspace:/a',
      'workspace:/a/b',
      'workspace:/a/b/c',
      'workspace:/ab',
      'workspace:/',
      'workspace:/x:',
      'workspace:/x:/y',
      'workspace:/x:/y/z',
      'workspace:/x:/yz',
      'workspace:/n:',
      'workspace:/n:/m',
      'other:/',
      'other:/q',
      'other:/q/r',
      'otherx:/q',
      'workspace:/deep/er',
      'workspace:/deep/er/still',
      'workspace:/deep/er/still/1/2/3',
      'work:/a/b',
    ];
    const naive = (uri: string, among: string[]) => among.some((dir) => uri !== dir && isSameOrBelow(uri, dir));
    for (let mask = 0; mask < 1 << dirs.length; mask++) {
      const among = dirs.filter((_, i) => mask & (1 << i));
      for (const uri of uris)
        expect([uri, among, isBelowAny(uri, new Set(among))]).toEqual([uri, among, naive(uri, among)]);
    }
    expect(isBelowAny('workspace:/a/b', new Set(['workspace:/a']))).toBe(true);
    expect(isBelowAny('workspace:/a', new Set(['workspace:/a']))).toBe(false);
  });
});
