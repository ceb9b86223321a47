import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from './fs.js';
import { Roots } from './roots.js';
import { makeSandbox, type Sandbox } from '../../testkit/sandbox.js';

let box: Sandbox;
let roots: Roots;
const badUri = expect.objectContaining({ code: 'BAD_URI' });

beforeEach(async () => {
  box = await makeSandbox({}, { outside: {} });
  // The data dir sits inside the workspace here: none of it may be reachable from workspace URIs.
  const dataDir = path.join(box.workspace, '.turnback');
  await mkdir(path.join(dataDir, 'store'), { recursive: true });
  await mkdir(path.join(dataDir, 'files'), { recursive: true });
  await symlink(box.outside, path.join(box.workspace, 'out'));
  await mkdir(path.join(box.workspace, 'real'));
  await symlink(path.join(box.workspace, 'real'), path.join(box.workspace, 'inner-link'));
  roots = await Roots.create(
    new EngineFs(),
    [
      { name: 'workspace', kind: 'workspace', path: box.workspace },
      { name: 'data', kind: 'data', path: path.join(dataDir, 'files') },
      { name: 'logs', kind: 'logs', path: path.join(box.base, 'logs') },
    ],
    dataDir,
    path.join(dataDir, 'store'),
  );
});
afterEach(async () => {
  await box.cleanup();
});

describe('URI resolution', () => {
  it('resolves plain and not-yet-existing paths inside the root', async () => {
    const r = await roots.resolve('workspace:/a/b/c.txt');
    expect(r.abs).toBe(path.join(box.workspace, 'a/b/c.txt'));
    expect(r.tracked).toBe(true);
  });

  it('follows a symlinked directory that stays inside the root', async () => {
    const r = await roots.resolve('workspace:/inner-link/x.txt');
    expect(r.abs).toBe(path.join(box.workspace, 'real/x.txt'));
  });

  it('refuses a path through a symlink that leads outside, touching nothing', async () => {
    await expect(roots.resolve('workspace:/out/x.txt')).rejects.toEqual(badUri);
    await expect(roots.resolve('workspace:/out/new/deeper.txt')).rejects.toEqual(badUri);
    expect(await readdir(box.outside)).toEqual([]);
  });

  it('refuses a link at the path itself leading outside for content, not for the link itself', async () => {
    await writeFile(path.join(box.outside, 'secret'), 's');
    await symlink(path.join(box.outside, 'secret'), path.join(box.workspace, 'secret-link'));
    await expect(roots.resolve('workspace:/secret-link', { content: true })).rejects.toEqual(badUri);
    await expect(roots.resolve('workspace:/secret-link')).resolves.toMatchObject({ uri: 'workspace:/secret-link' });
  });

  it('never reaches the data dir from the workspace, nor the store from any root', async () => {
    await expect(roots.resolve('workspace:/.turnback/store/turnback.db')).rejects.toEqual(badUri);
    await expect(roots.resolve('workspace:/.turnback/files/x')).rejects.toEqual(badUri);
    await expect(roots.resolve('workspace:/.turnback')).rejects.toEqual(badUri);
    await expect(roots.resolve('data:/x.txt')).resolves.toMatchObject({ tracked: false });
  });

  it('refuses removing a directory that holds the data dir', async () => {
    await expect(roots.resolve('workspace:/', { removes: true, allowRoot: true })).rejects.toEqual(badUri);
  });

  it('refuses unknown roots and the root itself as a target', async () => {
    await expect(roots.resolve('nope:/a')).rejects.toEqual(badUri);
    await expect(roots.resolve('workspace:/')).rejects.toEqual(badUri);
  });

  it('tracks workspace and custom kinds only', async () => {
    expect(roots.isTrackedUri('workspace:/a')).toBe(true);
    expect(roots.isTrackedUri('logs:/a')).toBe(false);
    expect(roots.isTrackedUri('data:/a')).toBe(false);
    expect(roots.isTrackedUri('unknown:/a')).toBe(false);
  });
});
