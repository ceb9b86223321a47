// System errors as the engine's hosts see them: coded, naming the path by its URI.
import { describe, expect, it } from 'vitest';
import { codedError } from './system-errors.js';

const uriOf = (p: string) => (p === '/ws/a.txt' ? 'workspace:/a.txt' : undefined);
const sys = (code: string, path?: string) => Object.assign(new Error(code), { code, ...(path ? { path } : {}) });

describe('codedError', () => {
  it.each([
    ['EACCES', 'FORBIDDEN'],
    ['EPERM', 'FORBIDDEN'],
    ['EROFS', 'FORBIDDEN'],
    ['SQLITE_READONLY', 'FORBIDDEN'],
    ['SQLITE_READONLY_DBMOVED', 'FORBIDDEN'],
    ['ENOSPC', 'NO_SPACE'],
    ['EDQUOT', 'NO_SPACE'],
    ['SQLITE_FULL', 'NO_SPACE'],
    ['ENAMETOOLONG', 'BAD_URI'],
  ])('%s is %s', (code, coded) => {
    const e = codedError(sys(code, '/ws/a.txt'), uriOf);
    expect(e).toMatchObject({ code: coded, details: expect.objectContaining({ uri: 'workspace:/a.txt' }) });
    expect((e as { cause?: unknown }).cause).toMatchObject({ code });
  });

  it('leaves other errors as they are', () => {
    const e = sys('EIO', '/ws/a.txt');
    expect(codedError(e, uriOf)).toBe(e);
    const notFound = sys('ENOENT', '/elsewhere');
    expect(codedError(notFound, uriOf)).toBe(notFound);
  });
});
