// The workspace's commits and the agent turns behind them, read from the turnback notes
// (docs/api.md "Provenance"): teammates' notes included, each turn marked local or not.
import type {
  BlameResponse,
  CommitFileDiffResponse,
  CommitResponse,
  CommitSummary,
  CommitsResponse,
  NoteTurn,
} from '../../protocol.js';
import type { Engine } from '../../engine/api.js';
import { gitDirOf, GitError } from '../../git/git.js';
import { commitFileDiff, PathNotInCommitError, UnknownCommitError } from '../../provenance/commit-diff.js';
import { linkCommits } from '../../provenance/link-commits.js';
import { blameFile, commitsWithTurns, type CommitTurns } from '../../provenance/read.js';
import { HttpError } from '../errors.js';
import type { RouteHandler } from '../types.js';
import { queryLimit, queryRequired } from '../validate.js';

const SHA = /^[0-9a-f]{4,64}$/;
const DEFAULT_LIMIT = 100;

function isLocal(engine: Engine, turn: NoteTurn): boolean {
  try {
    engine.getManifest(turn.id);
    return true;
  } catch {
    return false;
  }
}

function summary(engine: Engine, commit: CommitTurns): CommitSummary {
  return { ...commit, turns: commit.turns.map((turn) => ({ ...turn, local: isLocal(engine, turn) })) };
}

/** `?path=`: relative, without `..` or empty segments or NUL; anything else is refused before git runs. */
function relativePath(query: URLSearchParams): string {
  const path = queryRequired(query, 'path');
  if (path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '') || path.includes('\0'))
    throw new HttpError('BAD_REQUEST', 'path must be relative, without .. or empty segments');
  return path;
}

/** Links what the reflog gained first, so a commit made a moment ago shows its turns. */
async function freshRoot(engine: Engine): Promise<string | null> {
  if (!(await gitDirOf(engine.workspace))) return null;
  await linkCommits(engine).catch(() => undefined);
  return engine.workspace;
}

/** `?limit=` (default 100) `&before=<sha>`: from that commit on (the previous page's `next`). */
export const listCommits: RouteHandler<CommitsResponse> = async ({ query }, { engine }) => {
  const limit = queryLimit(query) ?? DEFAULT_LIMIT;
  const before = query.get('before');
  if (before !== null && !SHA.test(before)) throw new HttpError('BAD_REQUEST', 'before must be a commit sha');
  const root = await freshRoot(engine);
  if (!root) return { body: { repository: false, commits: [], next: null } };
  let rows: CommitTurns[];
  try {
    rows = await commitsWithTurns(root, `${before ?? 'HEAD'}`, { limit: limit + 1, walk: true });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (before !== null) throw new HttpError('NOT_FOUND', `no commit ${before}`);
    return { body: { repository: true, commits: [], next: null } }; // no commit yet
  }
  const next = rows.length > limit ? rows[limit].sha : null;
  return { body: { repository: true, commits: rows.slice(0, limit).map((c) => summary(engine, c)), next } };
};

export const getCommit: RouteHandler<CommitResponse> = async ({ params }, { engine }) => {
  if (!SHA.test(params.sha)) throw new HttpError('BAD_REQUEST', 'sha must be a commit sha');
  const root = await freshRoot(engine);
  if (!root) throw new HttpError('NOT_FOUND', 'the workspace is not a git repository');
  try {
    const [commit] = await commitsWithTurns(root, `${params.sha}^{commit}`);
    return { body: { commit: summary(engine, commit) } };
  } catch (error) {
    if (error instanceof GitError) throw new HttpError('NOT_FOUND', `no commit ${params.sha}`);
    throw error;
  }
};

/** `?path=` relative to the workspace: each line as committed at HEAD, its commit and turn. */
export const blame: RouteHandler<BlameResponse> = async ({ query }, { engine }) => {
  const path = relativePath(query);
  const root = await freshRoot(engine);
  if (!root) throw new HttpError('NOT_FOUND', 'the workspace is not a git repository');
  try {
    return { body: await blameFile(root, path) };
  } catch (error) {
    if (error instanceof GitError) throw new HttpError('FILE_NOT_FOUND', `${path} is not in HEAD`);
    throw error;
  }
};

/** `?path=` a repository path: the commit's change to it, both sides read from git's objects only. */
export const commitDiff: RouteHandler<CommitFileDiffResponse> = async ({ params, query }, { engine }) => {
  if (!SHA.test(params.sha)) throw new HttpError('BAD_REQUEST', 'sha must be a commit sha');
  const path = relativePath(query);
  if (!(await gitDirOf(engine.workspace))) throw new HttpError('NOT_FOUND', 'the workspace is not a git repository');
  try {
    return { body: await commitFileDiff(engine.workspace, params.sha, path) };
  } catch (error) {
    if (error instanceof UnknownCommitError) throw new HttpError('NOT_FOUND', `no commit ${params.sha}`);
    if (error instanceof PathNotInCommitError)
      throw new HttpError('FILE_NOT_FOUND', `${path} is in neither ${params.sha} nor its parent`);
    throw error;
  }
};
