import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exactWorkspaceRoot, refusalOf, WorkspaceRefusedError, workspaceRootOf } from './workspace-root.js';

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-root-')));
  await mkdir(path.join(root, 'home'));
  env = { HOME: path.join(root, 'home') };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the workspace of a path', () => {
  it('is the git top level when there is one (a .git folder or worktree file), else the path', async () => {
    const repo = path.join(root, 'home', 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
    expect(workspaceRootOf(path.join(repo, 'src', 'deep'), env)).toBe(repo);
    const worktree = path.join(root, 'home', 'wt');
    await mkdir(path.join(worktree, 'a'), { recursive: true });
    await writeFile(path.join(worktree, '.git'), 'gitdir: elsewhere\n');
    expect(workspaceRootOf(path.join(worktree, 'a'), env)).toBe(worktree);
    const plain = path.join(root, 'home', 'plain', 'x');
    await mkdir(plain, { recursive: true });
    expect(workspaceRootOf(plain, env)).toBe(plain);
  });

  it('is reached by its real path through a symlink', async () => {
    const real = path.join(root, 'home', 'real');
    await mkdir(real);
    await symlink(real, path.join(root, 'home', 'link'));
    expect(workspaceRootOf(path.join(root, 'home', 'link'), env)).toBe(real);
  });

  it('refuses /, the home folder itself and system folders, with a clear message', () => {
    expect(() => workspaceRootOf('/', env)).toThrow(/root folder/);
    expect(() => workspaceRootOf(env.HOME!, env)).toThrow(/home folder .* itself cannot be a workspace/);
    for (const system of ['/usr', '/usr/lib', '/etc', '/proc', '/tmp', '/var']) {
      expect(refusalOf(system, env.HOME!), system).toMatch(/system folder|cannot/);
    }
    expect(refusalOf('/tmp/project', env.HOME!)).toBeNull();
    expect(() => workspaceRootOf(path.join(root, 'missing'), env)).toThrow(WorkspaceRefusedError);
    expect(() => workspaceRootOf('relative/dir', env)).toThrow(/absolute/);
  });

  it('falls back to the path when the git top level is the home folder (a dotfiles repository)', async () => {
    await mkdir(path.join(env.HOME!, '.git'));
    const project = path.join(env.HOME!, 'project');
    await mkdir(project);
    expect(workspaceRootOf(project, env)).toBe(project);
    expect(() => workspaceRootOf(env.HOME!, env)).toThrow(/home folder/);
  });

  it('takes serve --workspace as given, refusals aside', async () => {
    const repo = path.join(root, 'home', 'repo2');
    await mkdir(path.join(repo, '.git', 'x'), { recursive: true });
    await mkdir(path.join(repo, 'sub'));
    expect(exactWorkspaceRoot(path.join(repo, 'sub'), env)).toBe(path.join(repo, 'sub'));
    expect(() => exactWorkspaceRoot(env.HOME!, env)).toThrow(/home folder/);
  });
});
