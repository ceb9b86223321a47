// A commit's change to one path, read from git's objects alone (never the files on disk): the
// path in the commit's first parent and in the commit, as the console's diff shows them.
import type { CommitFileDiffResponse, CommitFileSide } from '../protocol.js';
import { TEXT_LIMIT, isBinary } from '../engine/turns/summary.js';
import { git, gitMaybe, readBlob } from '../git/git.js';

const ABSENT: CommitFileSide = { exists: false, binary: false, tooLarge: false, size: 0, text: null };

export class UnknownCommitError extends Error {}
export class PathNotInCommitError extends Error {}

/** The tree entry `path` (from the repository's top) in `rev`; a directory, or nothing, is absent. */
async function sideAt(cwd: string, rev: string, path: string): Promise<CommitFileSide> {
  // Literal pathspecs: `*` or `:(…)` in a name is the name. ls-tree follows no symlink.
  const out = await git(cwd, ['--literal-pathspecs', 'ls-tree', '-l', '-z', '--full-tree', rev, '--', path]);
  const entry = out
    .split('\0')
    .map((row) => /^(\d+) (\w+) ([0-9a-f]+) +(\S+)\t([\s\S]*)$/.exec(row))
    .find((m) => m !== null && m[5] === path);
  if (!entry) return ABSENT;
  const [, mode, kind, oid, size] = entry;
  if (kind === 'commit') return { ...ABSENT, exists: true, type: 'submodule' };
  if (kind !== 'blob') return ABSENT;
  const side: CommitFileSide = {
    ...ABSENT,
    exists: true,
    type: mode === '120000' ? 'symlink' : 'file',
    size: Number(size),
  };
  if (side.size > TEXT_LIMIT) return { ...side, tooLarge: true };
  const data = await readBlob(cwd, oid);
  return isBinary(data) ? { ...side, binary: true } : { ...side, text: data.toString('utf8') };
}

/** `sha` (a commit of the repository holding `cwd`) and its change to `path`, a repository path. */
export async function commitFileDiff(cwd: string, sha: string, path: string): Promise<CommitFileDiffResponse> {
  const line = await gitMaybe(cwd, ['rev-list', '--parents', '-n', '1', `${sha}^{commit}`, '--']);
  if (!line) throw new UnknownCommitError(sha);
  const [commit, parent = null] = line.trim().split(' ');
  const [before, after] = await Promise.all([parent ? sideAt(cwd, parent, path) : ABSENT, sideAt(cwd, commit, path)]);
  if (!before.exists && !after.exists) throw new PathNotInCommitError(path);
  return { sha: commit, parent, path, before, after };
}
