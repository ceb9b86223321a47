// Git's own index after an undo: turnback puts the working tree back and never touches `.git`, so
// a change the agent staged (a `git mv`, a `git add`) stays staged. This finds the paths where
// that is so, and on request (`--git-add`) stages them as they now are.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RollbackResult } from '../../protocol.js';

const run = promisify(execFile);

/** Workspace-relative paths an undo wrote, removed or moved. */
export function pathsOfResult(result: RollbackResult): string[] {
  const uris = [
    ...result.restored,
    ...result.deleted,
    ...result.movedBack.flatMap((move) => [move.from, move.to]),
    ...(result.keptBoth ?? []).map((kept) => kept.copy),
  ];
  return [...new Set(uris.map((uri) => uri.replace(/^workspace:\//, '')))].sort();
}

/** Of `paths`, those git has staged changes for (`git status` column X), in the repository at `root`; none outside git. */
export async function stagedAmong(root: string, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  let stdout: string;
  try {
    ({ stdout } = await run(
      'git',
      ['-C', root, 'status', '--porcelain=v1', '-z', '--untracked-files=no', '--', ...paths],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    ));
  } catch {
    return [];
  }
  const staged = new Set<string>();
  const fields = stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry.length < 4) continue;
    const [x, name] = [entry[0], entry.slice(3)];
    // A rename's entry is followed by its origin.
    const origin = x === 'R' || x === 'C' ? fields[++i] : undefined;
    if (x === ' ' || x === '?') continue;
    staged.add(name);
    if (origin) staged.add(origin);
  }
  const prefix = await run('git', ['-C', root, 'rev-parse', '--show-prefix']).then(
    ({ stdout: out }) => out.trim(),
    () => '',
  );
  // git names paths from the repository's top; the workspace may be a folder below it.
  return [...staged]
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
    .sort();
}

/** `git add -A -- <paths>`: the index takes each path as it now is (a removed one is removed from it). */
export async function stageAsTheyAre(root: string, paths: string[]): Promise<void> {
  await run('git', ['-C', root, 'add', '-A', '--', ...paths]);
}
