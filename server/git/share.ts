// Sharing the turnback notes through a remote: the refspecs `share on` adds to the person's own
// `git push` / `git fetch`, and `turnback push` / `pull`, which merge two clones' notes.
import { NOTES_REF, REMOTE_NOTES_PREFIX } from '../provenance/note.js';
import { git, gitMaybe, GitError } from './git.js';

export const PUSH_SPEC = `${NOTES_REF}:${NOTES_REF}`;
export const fetchSpecOf = (remote: string) => `+${NOTES_REF}:${REMOTE_NOTES_PREFIX}${remote}`;
/** Set when `share on` added `remote.<r>.push HEAD` (no push refspec was there), so `off` takes it back. */
const ADDED_HEAD = 'turnback.addedPushHead';

async function values(cwd: string, key: string): Promise<string[]> {
  return ((await gitMaybe(cwd, ['config', '--get-all', key])) ?? '').split('\n').filter((v) => v !== '');
}

/** The remote to share with: the one named, else `origin`, else the only one. */
export async function remoteOf(cwd: string, named?: string): Promise<string> {
  const remotes = (await git(cwd, ['remote'])).split('\n').filter((r) => r !== '');
  if (named !== undefined) {
    if (!remotes.includes(named)) throw new GitError(`no remote ${named} in this repository`, 2, '');
    return named;
  }
  if (remotes.includes('origin')) return 'origin';
  if (remotes.length === 1) return remotes[0];
  throw new GitError(
    remotes.length === 0 ? 'this repository has no remote' : `name the remote: --remote ${remotes.join('|')}`,
    2,
    '',
  );
}

export interface ShareState {
  remote: string;
  on: boolean;
  prompts: boolean;
}

export async function shareState(cwd: string, remote: string): Promise<ShareState> {
  const fetch = await values(cwd, `remote.${remote}.fetch`);
  const prompts = (await gitMaybe(cwd, ['config', '--bool', '--get', 'turnback.prompts']))?.trim() === 'true';
  return { remote, on: fetch.includes(fetchSpecOf(remote)), prompts };
}

/** A push refspec whose source ref is missing fails the whole `git push`: an empty notes commit makes it exist. */
async function ensureNotesRef(cwd: string): Promise<void> {
  if ((await gitMaybe(cwd, ['rev-parse', '--verify', '--quiet', NOTES_REF])) !== null) return;
  const emptyTree = (await git(cwd, ['mktree'], '')).trim();
  const root = (await git(cwd, ['commit-tree', emptyTree, '-m', 'turnback notes'])).trim();
  await git(cwd, ['update-ref', NOTES_REF, root, '']);
}

/**
 * Merges each remote's fetched notes into the local ref (`cat_sort_uniq`: both sides' turns), so
 * the person's next `git push` of the notes is a fast-forward. A no-op when nothing new came.
 */
export async function mergeRemoteNotes(cwd: string): Promise<void> {
  const out = (await gitMaybe(cwd, ['for-each-ref', '--format=%(refname)', REMOTE_NOTES_PREFIX])) ?? '';
  for (const theirs of out.split('\n').filter((ref) => ref !== '')) {
    const local = await gitMaybe(cwd, ['rev-parse', '--verify', '--quiet', NOTES_REF]);
    if (local === null) {
      await git(cwd, ['update-ref', NOTES_REF, theirs, '']);
      continue;
    }
    if ((await gitMaybe(cwd, ['merge-base', '--is-ancestor', theirs, NOTES_REF])) !== null) continue;
    await git(cwd, ['notes', '--ref', NOTES_REF, 'merge', '--quiet', '-s', 'cat_sort_uniq', theirs]);
  }
}

/** Adds the fetch and push refspecs (once), and sets or clears `turnback.prompts`. */
export async function shareOn(cwd: string, remote: string, prompts: boolean): Promise<ShareState> {
  // The remote's notes first, so this clone's notes continue them rather than start apart.
  await gitMaybe(cwd, ['fetch', '--quiet', remote, fetchSpecOf(remote)]);
  await mergeRemoteNotes(cwd);
  await ensureNotesRef(cwd);
  if (!(await values(cwd, `remote.${remote}.fetch`)).includes(fetchSpecOf(remote)))
    await git(cwd, ['config', '--add', `remote.${remote}.fetch`, fetchSpecOf(remote)]);
  const push = await values(cwd, `remote.${remote}.push`);
  if (!push.includes(PUSH_SPEC)) {
    // A push refspec replaces git's default of pushing the current branch: `HEAD` keeps it.
    if (push.length === 0) {
      await git(cwd, ['config', '--add', `remote.${remote}.push`, 'HEAD']);
      await git(cwd, ['config', '--add', ADDED_HEAD, remote]);
    }
    await git(cwd, ['config', '--add', `remote.${remote}.push`, PUSH_SPEC]);
  }
  if (prompts) await git(cwd, ['config', 'turnback.prompts', 'true']);
  else await gitMaybe(cwd, ['config', '--unset-all', 'turnback.prompts']);
  return shareState(cwd, remote);
}

/** Takes back what `shareOn` added; the notes themselves stay. */
export async function shareOff(cwd: string, remote: string): Promise<ShareState> {
  await gitMaybe(cwd, ['config', '--fixed-value', '--unset-all', `remote.${remote}.fetch`, fetchSpecOf(remote)]);
  await gitMaybe(cwd, ['config', '--fixed-value', '--unset-all', `remote.${remote}.push`, PUSH_SPEC]);
  if ((await values(cwd, ADDED_HEAD)).includes(remote)) {
    await gitMaybe(cwd, ['config', '--fixed-value', '--unset-all', `remote.${remote}.push`, 'HEAD']);
    await gitMaybe(cwd, ['config', '--fixed-value', '--unset-all', ADDED_HEAD, remote]);
  }
  await gitMaybe(cwd, ['config', '--unset-all', 'turnback.prompts']);
  return shareState(cwd, remote);
}

/** Fetches the remote's notes and merges them into the local ref (each side's turns kept). */
export async function pullNotes(cwd: string, remote: string): Promise<void> {
  await git(cwd, ['fetch', '--quiet', remote, fetchSpecOf(remote)]);
  await mergeRemoteNotes(cwd);
}

/** Pushes the local notes; refused because the remote moved, it pulls (merges) and pushes again. */
export async function pushNotes(cwd: string, remote: string): Promise<void> {
  if ((await gitMaybe(cwd, ['rev-parse', '--verify', '--quiet', NOTES_REF])) === null) return;
  try {
    await git(cwd, ['push', '--quiet', remote, PUSH_SPEC]);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    await pullNotes(cwd, remote);
    await git(cwd, ['push', '--quiet', remote, PUSH_SPEC]);
  }
}
