// Which folder is a workspace (docs/api.md "Workspaces"): the git top level of a path when there
// is one, else the path itself; never `/`, the home folder itself, a system folder or a dot-folder
// of the home folder (keys, settings), where an agent's turn would reach past the person's projects.
// An agent's event alone only brings a project: a git top level, or a plain folder in the home folder.
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

/** Kernel trees: never a workspace, even when the person asks (`allow`). */
const PSEUDO_TREES = ['/dev', '/proc', '/sys'];

const inTree = (root: string, tree: string) => root === tree || root.startsWith(`${tree}/`);

/** The `$HOME/.<name>` folder holding `root` (itself included), or null. */
function homeDotFolderOf(root: string, home: string): string | null {
  if (home === '' || !root.startsWith(`${home}/`)) return null;
  const first = root.slice(home.length + 1).split('/')[0];
  return first.startsWith('.') ? path.join(home, first) : null;
}

/**
 * Why `root` (a real absolute path) cannot be a workspace, or null. `allow` (the person's own
 * `init --allow` or `allow: true`) lifts the system-folder and dot-folder refusals, never `/`,
 * the home folder itself or a kernel tree.
 */
export function refusalOf(root: string, home: string, allow = false): string | null {
  if (root === '/') return 'the root folder / cannot be a workspace';
  if (home !== '' && root === path.resolve(home))
    return `the home folder ${root} itself cannot be a workspace: use a project folder inside it`;
  if (PSEUDO_TREES.some((tree) => inTree(root, tree))) return `${root} is a system folder and cannot be a workspace`;
  if (allow) return null;
  if (SYSTEM_TREES.some((tree) => inTree(root, tree)) || SYSTEM_FOLDERS.includes(root))
    return `${root} is a system folder and cannot be a workspace (turnback init --allow records it anyway)`;
  const dotFolder = homeDotFolderOf(root, home);
  if (dotFolder !== null)
    return `${root} is inside ${dotFolder}, a settings folder of your home folder, and cannot be a workspace (turnback init --allow records it anyway)`;
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
 * The workspace holding `target` (an absolute path) that the person names (`init`, the console):
 * its git top level, else itself. A git top level that is refused (a dotfiles repository in the
 * home folder) gives way to the path itself.
 */
export function workspaceRootOf(
  target: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { allow?: boolean } = {},
): string {
  const real = realDirectory(target);
  const home = homeOf(env);
  const allow = options.allow === true;
  const top = gitTopLevel(real);
  if (top !== null && refusalOf(top, home, allow) === null) return top;
  const refusal = refusalOf(real, home, allow);
  if (refusal) throw new WorkspaceRefusedError(refusal, target);
  return real;
}

/**
 * The workspace an agent's event from `cwd` may register by itself, with no word from the person:
 * the git top level of `cwd`, else `cwd` when it is a plain folder inside the home folder. Any
 * other folder is refused with the `turnback init` line that records it (`host` names the agent
 * host in that line when known). The adapters' routing asks this for a cwd no workspace holds.
 */
export function autoWorkspaceRootOf(cwd: string, env: NodeJS.ProcessEnv = process.env, host?: string): string {
  const real = realDirectory(cwd);
  const home = homeOf(env);
  const top = gitTopLevel(real);
  if (top !== null && refusalOf(top, home) === null) return top;
  const refusal = refusalOf(real, home);
  if (refusal) throw new WorkspaceRefusedError(refusal, cwd);
  if (home !== '' && real.startsWith(`${home}/`)) return real;
  throw new WorkspaceRefusedError(
    `${real} is neither a git repository nor a folder in your home folder, so an agent's event does not make it a workspace: to record it, run turnback init ${host ?? '<host>'} --workspace ${real}`,
    cwd,
  );
}

/** `serve --workspace <dir>` takes the folder as given (its store is keyed by it), refusals aside. */
export function exactWorkspaceRoot(
  target: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { allow?: boolean } = {},
): string {
  const real = realDirectory(path.resolve(target));
  const refusal = refusalOf(real, homeOf(env), options.allow === true);
  if (refusal) throw new WorkspaceRefusedError(refusal, target);
  return real;
}
