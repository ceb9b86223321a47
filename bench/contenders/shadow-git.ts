// The approach of agents that snapshot with git: a separate git dir over the workspace,
// `git add -A && git commit` per turn, `git restore --source=<commit> --worktree` to roll back.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { treeSize } from '../fs-tools.js';
import type { FileEdit } from '../workloads.js';
import type { Contender } from './contender.js';

const run = promisify(execFile);

// gc.auto=0: a background repack mid-run would land in unrelated samples; the packed size is
// measured separately (`git gc`) so git is not judged by loose objects alone.
const CONFIG = [
  '-c',
  'user.name=turnback-bench',
  '-c',
  'user.email=bench@localhost',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'gc.auto=0',
];

export interface ShadowGit extends Contender {
  git(...args: string[]): Promise<string>;
  /** `git add -A && git commit` of whatever the work tree holds now. */
  snapshot(message: string): Promise<void>;
  gitDir: string;
}

export async function shadowGitContender(workspace: string, gitDir: string): Promise<ShadowGit> {
  const env = {
    ...process.env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workspace,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const git = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('git', [...CONFIG, ...args], { env, cwd: workspace, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  };
  const snapshot = async (message: string): Promise<void> => {
    await git('add', '-A');
    await git('commit', '-q', '-m', message);
  };
  let head = '';
  await git('init', '-q');
  return {
    name: 'shadow-git',
    workspace,
    gitDir,
    git,
    snapshot,
    async beforeTurn() {
      // The checkpoint a turn rolls back to is the tree as the turn found it, rollbacks included.
      if (await git('status', '--porcelain')) await snapshot('before the turn');
      head = await git('rev-parse', 'HEAD');
    },
    async turn(edits: FileEdit[], title) {
      // Agents write the files themselves (no fsync), then snapshot the whole tree.
      for (const edit of edits) await writeFile(path.join(workspace, edit.path), edit.content);
      await snapshot(title);
      return head;
    },
    async rollback(handle, paths) {
      await git('restore', `--source=${handle}`, '--worktree', '--', ...paths);
    },
    async storeSize() {
      return treeSize(gitDir);
    },
    async close() {},
  };
}
