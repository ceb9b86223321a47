import { describe, expect, it } from 'vitest';
import { childUri, formatUri, isSameOrBelow, parentUri, parseUri } from './uri.js';

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
});
