// Which folder is a workspace (docs/api.md "Workspaces"): the git top level of a path when there
// is one, else the path itself; never `/`, the home folder itself or a system folder, where an
// agent's turn would be the whole machine's.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** A path that cannot be a workspace: 400 WORKSPACE_REFUSED. */
export class WorkspaceRefusedError extends Error {
  readonly code = 'WORKSPACE_REFUSED';
  readonly details: Record<string, unknown>;
  constructor(message: string, target: string) {
    super(message);
    this.details = { path: target };
  }
}

/** Folders whose whole tree belongs to the system. */
const SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
];
/** Folders that hold other people's or programs' folders: refused themselves, their sub-folders allowed. */
const SYSTEM_FOLDERS = [
  '/',
  '/home',
  '/media',
  '/mnt',
  '/opt',
  '/root',
  '/srv',
  '/tmp',
  '/var',
  '/var/tmp',
  '/Users',
  '/Volumes',
  '/private',
  '/private/tmp',
  '/System',
  '/Library',
  '/Applications',
];

/** Why `root` (a real absolute path) cannot be a workspace, or null. */
export function refusalOf(root: string, home: string): string | null {
  if (root === '/') return 'the root folder / cannot be a workspace';
  if (home !== '' && root === path.resolve(home))
    return `the home folder ${root} itself cannot be a workspace: use a project folder inside it`;
  if (SYSTEM_TREES.some((tree) => root === tree || root.startsWith(`${tree}/`)))
    return `${root} is a system folder and cannot be a workspace`;
  if (SYSTEM_FOLDERS.includes(root)) return `${root} is a system folder and cannot be a workspace`;
  return null;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  try {
    return realpathSync(home);
  } catch {
    return path.resolve(home);
  }
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file for worktrees), or null. */
function gitTopLevel(dir: string): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return null;
  }
}

/** A real, existing directory path, or a refusal. */
function realDirectory(target: string): string {
  if (!path.isAbsolute(target))
    throw new WorkspaceRefusedError(`a workspace path must be absolute, not ${JSON.stringify(target)}`, target);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw new WorkspaceRefusedError(`${target} does not exist`, target);
  }
  if (!statSync(real).isDirectory()) throw new WorkspaceRefusedError(`${target} is not a directory`, target);
  return real;
}

/**
 * The workspace holding `target` (an absolute path): its git top level, else itself. A git top
 * level that is refused (a dotfiles repository in the home folder) gives way to the path itself.
 */
export function workspaceRootOf(target: string, env: NodeJS.ProcessEnv = process.env): string {
  const real = realDirectory(target);
  const home = homeOf(env);
  const top = gitTopLevel(real);
  if (top !== null && refusalOf(top, home) === null) return top;
  const refusal = refusalOf(real, home);
  if (refusal) throw new WorkspaceRefusedError(refusal, target);
  return real;
}

/** `serve --workspace <dir>` takes the folder as given (its store is keyed by it), refusals aside. */
export function exactWorkspaceRoot(target: string, env: NodeJS.ProcessEnv = process.env): string {
  const real = realDirectory(path.resolve(target));
  const refusal = refusalOf(real, homeOf(env));
  if (refusal) throw new WorkspaceRefusedError(refusal, target);
  return real;
}
