import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  autoWorkspaceRootOf,
  exactWorkspaceRoot,
  refusalOf,
  WorkspaceRefusedError,
  workspaceRootOf,
} from './workspace-root.js';

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

  it('refuses a dot-folder of the home folder and anything inside it, unless the person allows it', async () => {
    for (const dot of ['.ssh', '.config/systemd/user', '.gnupg', '.local/share']) {
      await mkdir(path.join(env.HOME!, dot), { recursive: true });
      expect(() => workspaceRootOf(path.join(env.HOME!, dot), env), dot).toThrow(/settings folder of your home folder/);
    }
    // A git repository inside one (a config kept in git) is refused as well.
    await mkdir(path.join(env.HOME!, '.config', 'nvim', '.git'), { recursive: true });
    expect(() => workspaceRootOf(path.join(env.HOME!, '.config', 'nvim'), env)).toThrow(/\.config/);
    expect(workspaceRootOf(path.join(env.HOME!, '.config', 'nvim'), env, { allow: true })).toBe(
      path.join(env.HOME!, '.config', 'nvim'),
    );
    expect(refusalOf('/var/lib', env.HOME!, true)).toBeNull();
    for (const never of ['/', env.HOME!, '/proc/1', '/sys'])
      expect(refusalOf(never, env.HOME!, true), never).not.toBeNull();
  });
});

describe('the workspace an agent event may bring by itself', () => {
  it('is a git top level anywhere, or a plain folder in the home folder', async () => {
    const srv = path.join(root, 'srv', 'app');
    await mkdir(path.join(srv, '.git'), { recursive: true });
    await mkdir(path.join(srv, 'src'));
    expect(autoWorkspaceRootOf(path.join(srv, 'src'), env)).toBe(srv);
    const notes = path.join(env.HOME!, 'notes', 'today');
    await mkdir(notes, { recursive: true });
    expect(autoWorkspaceRootOf(notes, env)).toBe(notes);
  });

  it('is never a plain folder outside the home folder, a dot-folder or a system folder: the refusal names turnback init', async () => {
    const data = path.join(root, 'var-lib', 'db');
    await mkdir(data, { recursive: true });
    expect(() => autoWorkspaceRootOf(data, env, 'codex')).toThrow(`run turnback init codex --workspace ${data}`);
    await mkdir(path.join(env.HOME!, '.config'));
    expect(() => autoWorkspaceRootOf(path.join(env.HOME!, '.config'), env)).toThrow(WorkspaceRefusedError);
    expect(() => autoWorkspaceRootOf('/etc', env)).toThrow(/system folder/);
    expect(() => autoWorkspaceRootOf(env.HOME!, env)).toThrow(/home folder/);
  });
});
