// A real edit sequence: the first-parent commits of a git bundle (a public project's history),
// read into turns. Each turn is what one commit changed against the snapshot before it, as
// the operations an agent's host would perform: writes, deletes, renames, mode changes,
// symlinks. The bundle is cloned into the run's temp dir, never into the repository.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** ../shared/data/ beside the repository (its README says what the bundles are). */
export const SHARED_DATA_DIR = path.resolve(REPO_DIR, '..', 'shared', 'data');

export type FileKind = 'file' | 'executable' | 'symlink';

export type HistoryOp =
  /** New bytes (or a new link target) at `path`; `setMode`: its mode must be set to `kind`'s after the write. */
  | { op: 'write'; path: string; kind: FileKind; content: Buffer; existed: boolean; setMode: boolean }
  /** The same bytes, the executable bit flipped. */
  | { op: 'mode'; path: string; kind: FileKind }
  | { op: 'delete'; path: string }
  | { op: 'rename'; from: string; to: string };

export interface HistoryTurn {
  /** The commit this turn brings the tree to. */
  commit: string;
  title: string;
  /** Deletes first, then renames, then writes: the order that never collides in one commit. */
  ops: HistoryOp[];
}

export interface History {
  /** A clone of the bundle (no work tree): git commands about the snapshots run here. */
  gitDir: string;
  base: string;
  turns: HistoryTurn[];
  /** Bytes of all writes, summed over the turns. */
  writtenBytes: number;
}

/** commander.js from 2019-08-13: 190 first-parent commits, 34 of them changing package-lock.json, with renames, mode changes and symlinks. */
export const COMMANDER_SPAN = {
  bundle: path.join(SHARED_DATA_DIR, 'commander.js.bundle'),
  base: '8b8d6e663dbebf2b8794d432f2ae94e53b7164ea',
  commits: 190,
};

export interface HistorySpan {
  bundle: string;
  /** The commit whose tree is the workspace before the first turn. */
  base: string;
  /** First-parent commits after `base` the span covers. */
  commits: number;
  /** Turns replayed: the span's commits, or evenly spaced snapshots of it (each turn then spans several commits). */
  turns: number;
}

export const gitIn =
  (gitDir: string) =>
  async (...args: string[]): Promise<string> =>
    (await run('git', ['--git-dir', gitDir, ...args], { maxBuffer: 256 * 1024 * 1024 })).stdout;

function kindOf(mode: string): FileKind | null {
  if (mode === '100644') return 'file';
  if (mode === '100755') return 'executable';
  if (mode === '120000') return 'symlink';
  return null; // 000000 (absent) or a submodule
}

interface RawChange {
  oldMode: string;
  newMode: string;
  oldHash: string;
  newHash: string;
  status: string;
  path: string;
  from?: string;
}

/** `git diff --raw -z -M` between two commits. */
function parseRawDiff(out: string): RawChange[] {
  const fields = out.split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i < fields.length - 1;) {
    const [oldMode, newMode, oldHash, newHash, status] = fields[i++].slice(1).split(' ');
    const from = status.startsWith('R') || status.startsWith('C') ? fields[i++] : undefined;
    changes.push({ oldMode, newMode, oldHash, newHash, status: status[0], from, path: fields[i++] });
  }
  return changes;
}

/** Reads many blobs through one `git cat-file --batch`. */
async function readBlobs(gitDir: string, hashes: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(hashes)];
  const child = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git cat-file exited ${code}`)))),
  );
  child.stdin.end(unique.map((h) => `${h}\n`).join(''));
  await done;
  const all = Buffer.concat(chunks);
  const blobs = new Map<string, Buffer>();
  let at = 0;
  for (const hash of unique) {
    const eol = all.indexOf(0x0a, at);
    const size = Number(all.subarray(at, eol).toString('latin1').split(' ')[2]);
    blobs.set(hash, Buffer.from(all.subarray(eol + 1, eol + 1 + size)));
    at = eol + 1 + size + 1;
  }
  return blobs;
}

function opsOf(changes: RawChange[], blobs: Map<string, Buffer>): HistoryOp[] {
  const deletes: HistoryOp[] = [];
  const renames: HistoryOp[] = [];
  const writes: HistoryOp[] = [];
  for (const c of changes) {
    const kind = kindOf(c.newMode);
    const oldKind = kindOf(c.oldMode);
    if (c.status === 'D') {
      deletes.push({ op: 'delete', path: c.path });
      continue;
    }
    if (!kind) continue; // a submodule: not a file of the tree
    const write = (existed: boolean, setMode: boolean): HistoryOp => ({
      op: 'write',
      path: c.path,
      kind,
      content: blobs.get(c.newHash)!,
      existed,
      setMode,
    });
    if (c.status === 'R') renames.push({ op: 'rename', from: c.from!, to: c.path });
    if (c.status === 'A' || c.status === 'C') {
      writes.push(write(false, kind === 'executable'));
    } else if (c.status === 'T' || (oldKind === 'symlink') !== (kind === 'symlink')) {
      // A changed type (file ↔ symlink): a delete and a fresh write.
      deletes.push({ op: 'delete', path: c.path });
      writes.push(write(false, kind === 'executable'));
    } else if (c.oldHash !== c.newHash) {
      writes.push(write(true, c.oldMode !== c.newMode));
    } else if (c.oldMode !== c.newMode) {
      writes.push({ op: 'mode', path: c.path, kind });
    }
  }
  return [...deletes, ...renames, ...writes];
}

/** Clones the bundle (no checkout) and reads the span into turns; null when the bundle is not there. */
export async function loadHistory(span: HistorySpan, cloneDir: string): Promise<History | null> {
  if (!existsSync(span.bundle)) return null;
  await run('git', ['clone', '-q', '--bare', span.bundle, cloneDir]);
  const git = gitIn(cloneDir);
  const firstParent = (await git('rev-list', '--first-parent', '--reverse', `${span.base}..HEAD`))
    .split('\n')
    .filter(Boolean)
    .slice(0, span.commits);
  if (firstParent.length < span.commits)
    throw new Error(
      `the bundle has ${firstParent.length} first-parent commits after ${span.base}, not ${span.commits}`,
    );
  const count = Math.min(span.turns, span.commits);
  // Evenly spaced snapshots, the last one always the span's last commit.
  const snapshots = [
    span.base,
    ...Array.from({ length: count }, (_, i) => firstParent[Math.round(((i + 1) * span.commits) / count) - 1]),
  ];
  const diffs: RawChange[][] = [];
  for (let i = 1; i < snapshots.length; i++) {
    diffs.push(parseRawDiff(await git('diff', '--raw', '-z', '-M', '--no-abbrev', snapshots[i - 1], snapshots[i])));
  }
  const blobs = await readBlobs(
    cloneDir,
    diffs
      .flat()
      .filter((c) => c.status !== 'D' && kindOf(c.newMode))
      .map((c) => c.newHash),
  );
  const turns: HistoryTurn[] = [];
  let writtenBytes = 0;
  for (let i = 1; i < snapshots.length; i++) {
    const ops = opsOf(diffs[i - 1], blobs);
    for (const op of ops) if (op.op === 'write') writtenBytes += op.content.length;
    const title = (await git('log', '-1', '--format=%s', snapshots[i])).trim();
    turns.push({ commit: snapshots[i], title, ops });
  }
  return { gitDir: cloneDir, base: span.base, turns, writtenBytes };
}

/** Writes a commit's tree into `dir` (modes and symlinks as git has them). */
export async function checkoutTree(gitDir: string, commit: string, dir: string): Promise<void> {
  await run('sh', [
    '-c',
    `mkdir -p "$2" && git --git-dir="$1" archive "$3" | tar -x -C "$2"`,
    'sh',
    gitDir,
    dir,
    commit,
  ]);
}

/**
 * Whether `dir` holds exactly the tree of `commit` (contents, modes, symlinks; git tracks no
 * empty directories): the tree git would write for it, through an index of its own.
 */
export async function treeMatches(gitDir: string, commit: string, dir: string, indexFile: string): Promise<boolean> {
  const env = {
    ...process.env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: dir,
    GIT_INDEX_FILE: indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const opts = { env, cwd: dir, maxBuffer: 16 * 1024 * 1024 };
  await run('git', ['-c', 'core.autocrlf=false', 'add', '-A', '--', '.'], opts);
  const written = (await run('git', ['write-tree'], opts)).stdout.trim();
  const expected = (await run('git', ['rev-parse', `${commit}^{tree}`], opts)).stdout.trim();
  return written === expected;
}
