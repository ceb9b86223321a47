// The Commits view end to end: machine 1 commits with a turnback note and pushes it; machine 2 (the
// served workspace) fetches, and its console shows machine 1's turn as another machine's, read-only.
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatNote, NOTES_REF } from '../server/provenance/note';
import { expect, saveScreenshot, test } from './fixtures';

const extraDirs: string[] = [];
test.afterEach(async () => {
  await Promise.all(extraDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function newFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  extraDirs.push(dir);
  return dir;
}

// The person's own git config stays out: a fixed identity, no hooks, no signing.
const git = (cwd: string, ...args: string[]): string =>
  execFileSync(
    'git',
    ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } },
  ).trim();

test("machine 2's console shows machine 1's pushed turn in the Commits view, read-only", async ({ page, turnback }) => {
  const remote = await newFolder('turnback-e2e-remote-');
  const machine1 = await newFolder('turnback-e2e-machine1-');
  git(remote, 'init', '--bare', '-q', '-b', 'main');

  // Machine 1: the person's start, an agent's commit carrying its note (the format
  // server/provenance/note.ts writes) that rewrites the start's file, then the person's readme.
  git(machine1, 'init', '-q', '-b', 'main');
  await mkdir(path.join(machine1, 'src'));
  await writeFile(path.join(machine1, 'src/greet.ts'), '// greetings go here\n');
  git(machine1, 'add', '.');
  git(machine1, 'commit', '-q', '-m', 'Start');
  await writeFile(path.join(machine1, 'src/greet.ts'), 'export const greet = (name: string) =>\n  `Hello, ${name}`;\n');
  git(machine1, 'add', '.');
  git(machine1, 'commit', '-q', '-m', 'Add the greeting');
  const agentCommit = git(machine1, 'rev-parse', 'HEAD');
  const note = formatNote({
    turnback: 1,
    turns: [
      {
        id: 'turn-of-machine-1',
        host: 'gemini-cli',
        session: 'sess-m1',
        at: '2026-12-07T05:00:00.000Z',
        title: 'Write a greeting helper',
        model: 'gemini-2.5-pro',
        files: { 'src/greet.ts': '1-2' },
        lines: 2,
        record: `sha256:${'ab'.repeat(32)}`,
      },
    ],
  });
  git(machine1, 'notes', '--ref', 'turnback', 'add', '-m', note.trim(), agentCommit);
  await writeFile(path.join(machine1, 'README.md'), '# greet\n');
  git(machine1, 'add', '.');
  git(machine1, 'commit', '-q', '-m', 'Write the readme');
  const personCommit = git(machine1, 'rev-parse', 'HEAD');
  git(machine1, 'push', '-q', remote, 'main', NOTES_REF);

  // Machine 2: the served workspace becomes a clone of the remote, notes fetched.
  const ws = turnback.workspace;
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'fetch', '-q', remote, `main:refs/remotes/origin/main`, `${NOTES_REF}:${NOTES_REF}`);
  git(ws, 'checkout', '-q', '-B', 'main', 'origin/main');

  await turnback.open(page);
  await page.getByRole('button', { name: 'Commits', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Commits' });
  await expect(dialog).toBeVisible();
  const commits = dialog.getByRole('list', { name: 'Commits' });
  await expect(commits.locator(`[data-sha="${personCommit}"]`)).toContainText('Write the readme');
  await expect(commits.locator(`[data-sha="${personCommit}"]`)).toContainText("No agent turn: the person's");

  const turns = dialog.getByRole('list', { name: `Turns of ${agentCommit.slice(0, 8)}` });
  const turn = turns.locator('.commit-turn', { hasText: 'Write a greeting helper' });
  await expect(turn).toContainText('gemini-cli');
  await expect(turn).toContainText('another machine · read-only');
  await expect(turn).toContainText('src/greet.ts');
  await expect(turn).toContainText('model gemini-2.5-pro');
  await expect(turn).toHaveAttribute('data-local', 'false');
  // Read-only: nothing in the dialog offers to undo or roll back machine 1's turn; its one
  // button opens the commit's change to its file, from git.
  const short = agentCommit.slice(0, 8);
  await expect(turn.getByRole('button')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: /undo|roll ?back|rewind/i })).toHaveCount(0);
  await saveScreenshot(page, 'commits-1400');

  await turn.getByRole('button', { name: `Diff of src/greet.ts in ${short}` }).click();
  const change = turn.getByRole('region', { name: `Change to src/greet.ts in ${short}` });
  await expect(change).toContainText(
    `From git: commit ${short}'s change to src/greet.ts. This turn wrote lines 1–2 of it`,
  );
  await expect(change.getByText('`Hello, ${name}`;')).toBeVisible();
  await expect(change.getByText('// greetings go here')).toBeVisible();
  await saveScreenshot(page, 'commits-diff-1400');

  await page.setViewportSize({ width: 800, height: 900 });
  await expect(turn).toBeVisible();
  await expect(change.getByText('`Hello, ${name}`;')).toBeVisible();
  await saveScreenshot(page, 'commits-diff-800');
});
