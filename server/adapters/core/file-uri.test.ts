import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileUriFor } from './file-uri.js';

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-file-uri-'));
  workspace = join(root, 'ws');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'src', 'a.ts'), 'a');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('fileUriFor', () => {
  it('names an absolute path by its workspace URI', () => {
    expect(fileUriFor(workspace, join(workspace, 'src', 'a.ts'), workspace)).toEqual({ uri: 'workspace:/src/a.ts' });
  });

  it('resolves a relative path against the cwd', () => {
    expect(fileUriFor(join(workspace, 'src'), './a.ts', workspace)).toEqual({ uri: 'workspace:/src/a.ts' });
  });

  it('names a file in a folder that does not exist yet', () => {
    expect(fileUriFor(workspace, join(workspace, 'lib', 'util', 'x.ts'), workspace)).toEqual({
      uri: 'workspace:/lib/util/x.ts',
    });
  });

  it('keeps a name as it is on disk, NFD or NFC', () => {
    const nfd = 'cafe\u0301.txt';
    expect(fileUriFor(workspace, nfd, workspace)).toEqual({ uri: `workspace:/${nfd}` });
    expect(fileUriFor(workspace, nfd.normalize('NFC'), workspace)).toEqual({
      uri: `workspace:/${nfd.normalize('NFC')}`,
    });
  });

  it('skips paths outside the workspace, and the workspace itself', () => {
    expect(fileUriFor(workspace, join(root, 'elsewhere.ts'), workspace)).toHaveProperty('skip');
    expect(fileUriFor(workspace, '../ws2/a.ts', workspace)).toHaveProperty('skip');
    expect(fileUriFor(workspace, workspace, workspace)).toHaveProperty('skip');
  });
});
