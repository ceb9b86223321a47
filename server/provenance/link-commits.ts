// Links the commits made in a workspace since the last look to the agent turns that wrote their
// lines, one note per commit (docs/design.md "Provenance"). Reads the engine through its public calls.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { CommitNote, NoteTurn, Turn } from '../protocol.js';
import type { Engine } from '../engine/api.js';
import { catFiles, git, gitDirOf, gitMaybe } from '../git/git.js';
import { readNotes, writeNote } from '../git/notes.js';
import { mergeRemoteNotes } from '../git/share.js';
import { countRanges, lineOrigins, rangesOf, type TurnVersions } from './line-origins.js';
import { MAX_FILES_PER_TURN, MAX_PROMPT_CHARS, uniqueTurns } from './note.js';
import { ReflogCursor, kindOf, readReflog, reflogSize, type ReflogEntry } from './reflog.js';
import { maskSecrets } from './secrets.js';

export type ProvenanceEngine = Pick<
  Engine,
  'dataDir' | 'workspace' | 'listSessions' | 'listTurns' | 'getManifest' | 'diff' | 'messages'
>;

export interface LinkResult {
  /** Commits that got a note. */
  noted: string[];
  /** A commit waits for a turn still being recorded: link again at its end. */
  waiting: boolean;
}

interface Candidate {
  turn: Turn;
  host: string;
  startMs: number;
  endMs: number;
}

/**
 * Notes every commit the HEAD reflog gained since the last call. The first call starts at the
 * store's first agent turn (its turns may predate provenance), or at the reflog's end if it has none.
 */
export async function linkCommits(engine: ProvenanceEngine): Promise<LinkResult> {
  const result: LinkResult = { noted: [], waiting: false };
  const gitDir = await gitDirOf(engine.workspace);
  if (!gitDir) return result;
  const cursor = new ReflogCursor(engine.dataDir);
  const view = async () => new RepoView(engine, (await git(engine.workspace, ['rev-parse', '--show-toplevel'])).trim());
  let repo: RepoView | undefined;
  let at = cursor.read();
  if (!at || at.gitDir !== gitDir) {
    repo = await view();
    at = { gitDir, offset: firstOffsetSince(gitDir, repo.firstTurnStart()) };
    cursor.write(gitDir, at.offset);
  }
  // Teammates' notes a `git fetch` brought are merged in, so the person's next push goes.
  await mergeRemoteNotes(engine.workspace).catch(() => undefined);
  const { entries } = readReflog(gitDir, at.offset);
  if (entries.length === 0) return result;
  repo ??= await view();
  for (const entry of entries) {
    const kind = kindOf(entry.message);
    if (kind !== null && !(await repo.noted(entry.sha))) {
      if (repo.activeBefore(entry.time)) {
        result.waiting = true;
        break;
      }
      const note = await repo.noteOf(entry, kind);
      if (note.turns.length > 0) {
        await writeNote(engine.workspace, entry.sha, note);
        repo.remember(entry.sha, note);
        result.noted.push(entry.sha);
      }
    }
    cursor.write(gitDir, entry.end);
  }
  return result;
}

/** The byte offset of the first reflog entry at or after `ms` (its seconds rounded up); the end when none is. */
function firstOffsetSince(gitDir: string, ms: number | null): number {
  if (ms === null) return reflogSize(gitDir);
  let offset = 0;
  for (const entry of readReflog(gitDir, 0).entries) {
    if (entry.time * 1000 + 999 >= ms) return offset;
    offset = entry.end;
  }
  return offset;
}

/** The repository and the workspace's turns, as one link call sees them. */
class RepoView {
  private readonly prefix: string;
  private candidates: Candidate[] | null = null;
  private notes: Map<string, CommitNote> | null = null;
  private sharePrompts: boolean | null = null;

  constructor(
    private readonly engine: ProvenanceEngine,
    private readonly top: string,
  ) {
    this.prefix = path.relative(top, realpathSync(engine.workspace)).split(path.sep).join('/');
  }

  private turns(): Candidate[] {
    if (this.candidates) return this.candidates;
    const list: Candidate[] = [];
    for (const session of this.engine.listSessions()) {
      for (const turn of this.engine.listTurns(session.sessionId)) {
        if (turn.kind !== 'agent' || turn.status === 'rolled-back' || turn.fileCount === 0) continue;
        const startMs = Date.parse(turn.startedAt);
        list.push({ turn, host: session.platform, startMs, endMs: turn.endedAt ? Date.parse(turn.endedAt) : Infinity });
      }
    }
    this.candidates = list.sort((a, b) => a.startMs - b.startMs);
    return this.candidates;
  }

  /** When the store's first agent turn with files began (ms), or null when it has none. */
  firstTurnStart(): number | null {
    return this.turns()[0]?.startMs ?? null;
  }

  /** A turn begun by `time` (seconds) is still being recorded: its lines are not known yet. */
  activeBefore(time: number): boolean {
    return this.turns().some((c) => c.turn.status === 'active' && c.startMs <= time * 1000 + 999);
  }

  private async allNotes(): Promise<Map<string, CommitNote>> {
    this.notes ??= await readNotes(this.top);
    return this.notes;
  }

  async noted(sha: string): Promise<boolean> {
    return (await this.allNotes()).has(sha);
  }

  remember(sha: string, note: CommitNote): void {
    this.notes?.set(sha, note);
  }

  async noteOf(entry: ReflogEntry, kind: 'commit' | 'amend' | 'copy'): Promise<CommitNote> {
    if (kind === 'copy') {
      const original = await this.originalOf(entry.sha);
      if (original) return original;
    }
    const note = await this.freshNote(entry);
    if (kind === 'amend') {
      const before = (await this.allNotes()).get(entry.old);
      if (before) note.turns = uniqueTurns([...note.turns, ...before.turns]);
    }
    return note;
  }

  /** The note of the commit a rebase or cherry-pick copied: same author, author time and message. */
  private async originalOf(sha: string): Promise<CommitNote | null> {
    const notes = await this.allNotes();
    if (notes.size === 0) return null;
    const format = '--format=%H%x00%an <%ae> %at%x00%B%x01';
    const keyOf = (out: string) =>
      out
        .split('\x01')
        .map((record) => record.replace(/^\n/, '').split('\x00'))
        .filter((parts) => parts.length === 3);
    const [mine] = keyOf(await git(this.top, ['show', '-s', format, sha]));
    if (!mine) return null;
    const others = keyOf(await git(this.top, ['show', '-s', '--no-walk', format, ...notes.keys()]));
    const match = others.find((o) => o[0] !== sha && o[1] === mine[1] && o[2] === mine[2]);
    return match ? (notes.get(match[0]) ?? null) : null;
  }

  /** Which turns wrote the commit's lines: each changed path walked from the parent through the turns. */
  private async freshNote(entry: ReflogEntry): Promise<CommitNote> {
    const parents = (await git(this.top, ['rev-list', '--parents', '-n', '1', entry.sha])).trim().split(' ').slice(1);
    const parent = parents[0] ?? null;
    const parentTime = parent ? Number((await git(this.top, ['show', '-s', '--format=%ct', parent])).trim()) : 0;
    const window = this.turns().filter((c) => c.endMs >= parentTime * 1000 && c.startMs <= entry.time * 1000 + 999);
    if (window.length === 0) return { turnback: 1, turns: [] };
    const changed = (
      await git(this.top, [
        'diff-tree',
        '--no-commit-id',
        '-r',
        '--name-only',
        '-z',
        ...(parent ? [parent] : ['--root']),
        entry.sha,
      ])
    )
      .split('\0')
      .filter((p) => p !== '');
    const touching = new Map<string, Candidate[]>();
    for (const c of window) {
      for (const file of this.engine.getManifest(c.turn.turnId).files) {
        const repoPath = this.repoPathOf(file.uri);
        if (repoPath && changed.includes(repoPath)) touching.set(repoPath, [...(touching.get(repoPath) ?? []), c]);
      }
    }
    const names = [...touching.keys()].flatMap((p) => [...(parent ? [`${parent}:${p}`] : []), `${entry.sha}:${p}`]);
    const blobs = await catFiles(this.top, names);
    const files = new Map<string, Map<string, string>>();
    for (const [repoPath, candidates] of touching) {
      const committed = blobs.get(`${entry.sha}:${repoPath}`);
      if (committed === undefined || committed.includes('\0')) continue;
      const versions: TurnVersions[] = [];
      for (const c of candidates) {
        const diff = await this.engine.diff(c.turn.turnId, this.uriOf(repoPath));
        if (diff.after.exists && diff.after.text === null) continue;
        versions.push({
          turnId: c.turn.turnId,
          before: diff.before.exists ? diff.before.text : '',
          after: diff.after.text,
        });
      }
      const parentText = parent ? (blobs.get(`${parent}:${repoPath}`) ?? null) : null;
      const added = await this.addedByGit(parent, entry.sha, repoPath);
      const origins = lineOrigins(parentText, versions, committed, added);
      for (const v of versions) {
        const ranges = rangesOf(origins, v.turnId);
        if (ranges === '') continue;
        const perTurn = files.get(v.turnId) ?? new Map<string, string>();
        perTurn.set(repoPath, ranges);
        files.set(v.turnId, perTurn);
      }
    }
    const turns: NoteTurn[] = [];
    for (const c of window) {
      const perTurn = files.get(c.turn.turnId);
      if (perTurn) turns.push(await this.noteTurn(c, perTurn));
    }
    return { turnback: 1, turns };
  }

  /** The lines (1-based) git's own diff says the commit added to `repoPath`, as `git blame` pairs them. */
  private async addedByGit(parent: string | null, sha: string, repoPath: string): Promise<Set<number>> {
    const patch = await git(this.top, [
      '--literal-pathspecs',
      'diff-tree',
      '-p',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      '--no-renames',
      ...(parent ? [parent] : ['--root']),
      sha,
      '--',
      repoPath,
    ]);
    const added = new Set<number>();
    for (const hunk of patch.matchAll(/^@@ -\S+ \+(\d+)(?:,(\d+))? @@/gm)) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let line = start; line < start + count; line++) added.add(line);
    }
    return added;
  }

  private async noteTurn(c: Candidate, perTurn: Map<string, string>): Promise<NoteTurn> {
    const manifest = this.engine.getManifest(c.turn.turnId);
    const listed = [...perTurn].slice(0, MAX_FILES_PER_TURN);
    const turn: NoteTurn = {
      id: c.turn.turnId,
      host: c.host,
      session: c.turn.sessionId,
      at: c.turn.startedAt,
      title: maskSecrets(c.turn.title),
      files: Object.fromEntries(listed),
      lines: [...perTurn.values()].reduce((sum, r) => sum + countRanges(r), 0),
      record: 'sha256:' + createHash('sha256').update(JSON.stringify(manifest)).digest('hex'),
    };
    if (perTurn.size > listed.length) turn.moreFiles = perTurn.size - listed.length;
    if (await this.promptsShared()) {
      const prompt = this.engine
        .messages(c.turn.sessionId, { turnId: c.turn.turnId })
        .find((m) => m.role === 'user')?.content;
      if (prompt) turn.prompt = maskSecrets(prompt).slice(0, MAX_PROMPT_CHARS);
    }
    return turn;
  }

  private async promptsShared(): Promise<boolean> {
    this.sharePrompts ??=
      (await gitMaybe(this.top, ['config', '--bool', '--get', 'turnback.prompts']))?.trim() === 'true';
    return this.sharePrompts;
  }

  /** `workspace:/a/b` -> the repository path, or null outside the workspace root. */
  private repoPathOf(uri: string): string | null {
    if (!uri.startsWith('workspace:/')) return null;
    const rel = uri.slice('workspace:/'.length);
    return this.prefix ? `${this.prefix}/${rel}` : rel;
  }

  private uriOf(repoPath: string): string {
    return 'workspace:/' + (this.prefix ? repoPath.slice(this.prefix.length + 1) : repoPath);
  }
}
