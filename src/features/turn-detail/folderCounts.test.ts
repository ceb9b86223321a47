import { describe, expect, it } from 'vitest';
import { folderCounts } from './folderCounts';

describe('folderCounts', () => {
  it('counts paths by the folder they sit in, most first, the top level as ./', () => {
    expect(
      folderCounts(['workspace:/a.txt', 'workspace:/src/x.ts', 'workspace:/src/y.ts', 'workspace:/b/c/d']),
    ).toEqual([
      { folder: 'src/', count: 2 },
      { folder: './', count: 1 },
      { folder: 'b/c/', count: 1 },
    ]);
  });
});
