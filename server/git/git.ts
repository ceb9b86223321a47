// Runs the person's own `git` in a repository: no shell, no config of ours, stdin when given.
import { execFile } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** `git <args>` in `cwd`; resolves with stdout, rejects with GitError on a non-zero exit. */
export function git(cwd: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const code = typeof error.code === 'number' ? error.code : null;
          reject(new GitError(`git ${args[0]}: ${stderr.trim() || error.message}`, code, stderr));
        } else resolve(stdout);
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Like `git`, but a non-zero exit answers null (a ref or config key that is not there). */
export async function gitMaybe(cwd: string, args: string[]): Promise<string | null> {
  try {
    return await git(cwd, args);
  } catch (error) {
    if (error instanceof GitError && error.exitCode !== null) return null;
    throw error;
  }
}

/** The repository's git dir (absolute), or null when `cwd` is in no repository. */
export async function gitDirOf(cwd: string): Promise<string | null> {
  const out = await gitMaybe(cwd, ['rev-parse', '--absolute-git-dir']).catch(() => null);
  return out ? out.trim() : null;
}

/** Each object's contents by `git cat-file --batch` (blobs, as text), keyed by the name asked. */
export async function catFiles(cwd: string, names: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (names.length === 0) return found;
  const out = await new Promise<Buffer>((resolve, reject) => {
    const child = execFile(
      'git',
      ['cat-file', '--batch'],
      { cwd, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' },
      (e, o) => (e ? reject(e) : resolve(o)),
    );
    child.stdin?.end(names.join('\n') + '\n');
  });
  let at = 0;
  for (const name of names) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString('utf8');
    at = eol + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    found.set(name, out.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return found;
}

/** One object's bytes as git stores them (`git cat-file blob`): a symlink's blob is its target. */
export function readBlob(cwd: string, oid: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['cat-file', 'blob', oid],
      { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = typeof error.code === 'number' ? error.code : null;
        const message = stderr.toString('utf8').trim();
        reject(new GitError(`git cat-file: ${message || error.message}`, code, message));
      },
    );
  });
}
