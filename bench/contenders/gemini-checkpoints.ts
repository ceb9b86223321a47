// Gemini CLI's own checkpointing (0.61.0, packages/core/src/services/gitService.ts), run as it
// runs it: a shadow repository in ~/.gemini/history/<project>/ (its .git the git dir, the
// project the work tree), its own .gitconfig (user, gpgsign off) as the global config and an
// empty file as the system one, the "safe git" environment (credential helper, fsmonitor,
// hooks, pager… cleared through GIT_CONFIG_COUNT), an empty "Initial commit" on branch main,
// the project's .gitignore copied beside it. Before a tool call that writes, a checkpoint is
// `git add .`, `git status --porcelain -b -u --null`, and `git commit --no-verify` only when the
// status is not clean (else the HEAD it has). /restore runs `git restore --source <hash> .`
// then `git clean -f -d`. Git's automatic gc is left on, as Gemini leaves it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { treeSize, type TreeSize } from '../fs-tools.js';

const run = promisify(execFile);

const AUTHOR = { name: 'Gemini CLI', email: 'gemini-cli@google.com' };

/** getSafeGitEnv(): what Gemini sets on every git it runs. */
const SAFE_CONFIG: [string, string][] = [
  ['credential.helper', ''],
  ['core.fsmonitor', ''],
  ['core.hooksPath', ''],
  ['core.sshCommand', ''],
  ['core.pager', 'cat'],
  ['core.editor', ''],
  ['sequence.editor', ''],
  ['diff.external', ''],
];

export interface GeminiCheckpoints {
  workspace: string;
  /** ~/.gemini/history/<project>: the repository's folder (its git dir is `.git` inside). */
  historyDir: string;
  gitDir: string;
  git(...args: string[]): Promise<string>;
  /** createFileSnapshot: the checkpoint before a tool call; answers its commit hash. */
  checkpoint(message: string): Promise<string>;
  /** restoreProjectFromSnapshot. */
  restore(commit: string): Promise<void>;
  /**
   * Waits for the `git gc --auto` a commit may have left running in the background (it holds
   * gc.pid while it works), so its CPU and disk land in no timed figure.
   */
  waitForAutoGc(): Promise<void>;
  storeSize(): Promise<TreeSize>;
}

function shadowEnv(historyDir: string, workspace: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (
      !key.startsWith('GIT_CONFIG_') &&
      key !== 'GIT_CONFIG_PARAMETERS' &&
      key !== 'GIT_DIR' &&
      key !== 'GIT_WORK_TREE'
    )
      env[key] = value;
  SAFE_CONFIG.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: String(SAFE_CONFIG.length),
    GIT_CONFIG_GLOBAL: path.join(historyDir, '.gitconfig'),
    GIT_CONFIG_SYSTEM: path.join(historyDir, '.gitconfig_system_empty'),
    GIT_AUTHOR_NAME: AUTHOR.name,
    GIT_AUTHOR_EMAIL: AUTHOR.email,
    GIT_COMMITTER_NAME: AUTHOR.name,
    GIT_COMMITTER_EMAIL: AUTHOR.email,
    GIT_DIR: path.join(historyDir, '.git'),
    GIT_WORK_TREE: workspace,
  };
}

/** setupShadowGitRepository, then the service over it. */
export async function geminiCheckpoints(workspace: string, historyDir: string): Promise<GeminiCheckpoints> {
  await mkdir(historyDir, { recursive: true });
  await writeFile(
    path.join(historyDir, '.gitconfig'),
    `[user]\n  name = ${AUTHOR.name}\n  email = ${AUTHOR.email}\n[commit]\n  gpgsign = false\n`,
  );
  await writeFile(path.join(historyDir, '.gitconfig_system_empty'), '');
  const env = shadowEnv(historyDir, workspace);
  // The set-up runs in the history folder with no GIT_DIR / GIT_WORK_TREE (simpleGit(repoDir)).
  const setupEnv = { ...env, GIT_DIR: undefined, GIT_WORK_TREE: undefined };
  await run('git', ['init', '--initial-branch', 'main'], { cwd: historyDir, env: setupEnv });
  await run('git', ['commit', '-m', 'Initial commit', '--allow-empty'], { cwd: historyDir, env: setupEnv });
  const userIgnore = await readFile(path.join(workspace, '.gitignore'), 'utf8').catch(() => '');
  await writeFile(path.join(historyDir, '.gitignore'), userIgnore);

  const gitDir = path.join(historyDir, '.git');
  const git = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('git', args, { cwd: workspace, env, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  };
  let committed = false;
  return {
    workspace,
    historyDir,
    gitDir,
    git,
    async checkpoint(message) {
      await git('add', '.');
      const status = await git('status', '--porcelain', '-b', '-u', '--null');
      // simple-git's isClean(): nothing but the branch line.
      const clean = status.split('\0').every((entry) => entry === '' || entry.startsWith('## '));
      if (!clean) {
        await git('-c', 'core.abbrev=40', 'commit', '-m', message, '--no-verify');
        committed = true;
      }
      return (await git('rev-parse', 'HEAD')).trim();
    },
    async restore(commit) {
      await git('restore', '--source', commit, '.');
      await git('clean', '-f', '-d');
    },
    async waitForAutoGc() {
      if (!committed) return;
      committed = false;
      // A detached gc drops the lock between its check and its daemon taking it again: only two
      // looks in a row without it count as done.
      const lock = path.join(gitDir, 'gc.pid');
      for (let quiet = 0; quiet < 2;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        quiet = existsSync(lock) ? 0 : quiet + 1;
      }
    },
    storeSize: () => treeSize(gitDir),
  };
}
