// Reading provenance from any clone: the commits with their notes' turns, and blame per line.
// Git alone answers (no service), so a teammate's clone reads what another machine recorded.
import type { BlameLine, BlameResponse, CommitNote, NoteTurn } from '../protocol.js';
import { git } from '../git/git.js';
import { noteIndex, readNotes } from '../git/notes.js';
import { inSpans, parseRanges } from './line-ranges.js';

export interface CommitTurns {
  sha: string;
  subject: string;
  author: string;
  at: string;
  turns: NoteTurn[];
}

/** `rev` a commit (that one) or a range with `..` (its commits): newest first, at most `limit`. */
export async function commitsWithTurns(
  cwd: string,
  rev: string,
  options: { limit?: number; skip?: number; walk?: boolean } = {},
): Promise<CommitTurns[]> {
  const args = ['log', '--format=%H%x00%s%x00%an%x00%cI', '--end-of-options'];
  if (options.limit !== undefined) args.splice(1, 0, `--max-count=${options.limit}`);
  if (options.skip) args.splice(1, 0, `--skip=${options.skip}`);
  if (!rev.includes('..') && !options.walk) args.splice(1, 0, '--no-walk');
  const out = await git(cwd, [...args, rev, '--']);
  const rows = out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\0'));
  const notes = await readNotes(
    cwd,
    rows.map((r) => r[0]),
  );
  return rows.map(([sha, subject, author, at]) => ({ sha, subject, author, at, turns: notes.get(sha)?.turns ?? [] }));
}

/** Each line of `file` (as committed at HEAD): its commit, then the turn that wrote it or null (the person's). */
export async function blameFile(cwd: string, file: string): Promise<BlameResponse> {
  // The notes' index and the prefix are read while git blames: blame is the long part.
  const [out, index, prefix] = await Promise.all([
    git(cwd, ['blame', '--porcelain', 'HEAD', '--', file]),
    noteIndex(cwd),
    git(cwd, ['rev-parse', '--show-prefix']),
  ]);
  const lines: { line: number; sha: string; orig: number; text: string }[] = [];
  const paths = new Map<string, string>();
  let current: { sha: string; orig: number; line: number } | null = null;
  for (const row of out.split('\n')) {
    if (row.startsWith('\t')) {
      if (current) lines.push({ ...current, text: row.slice(1) });
      current = null;
      continue;
    }
    const header = /^([0-9a-f]{40,64}) (\d+) (\d+)/.exec(row);
    if (header) current = { sha: header[1], orig: Number(header[2]), line: Number(header[3]) };
    else if (row.startsWith('filename ') && current) paths.set(current.sha, row.slice('filename '.length));
  }
  const notes = await readNotes(cwd, new Set(lines.map((l) => l.sha)), index);
  const spans = new Map<string, CommitSpans>();
  const answer: BlameLine[] = lines.map(({ line, sha, orig, text }) => {
    let owners = spans.get(sha);
    if (!owners) spans.set(sha, (owners = turnSpans(notes.get(sha), paths.get(sha) ?? '')));
    const turn = owners.turns.find((owner) => inSpans(owner.spans, orig))?.turn ?? null;
    return turn === null && owners.unlisted ? { line, sha, turn, text, unlisted: true } : { line, sha, turn, text };
  });
  return { path: prefix.trim() + file.replace(/^\.\//, ''), lines: answer };
}

interface CommitSpans {
  turns: { turn: NoteTurn; spans: [number, number][] }[];
  /** A turn of the commit wrote more files than its note lists, `repoPath` not among them. */
  unlisted: boolean;
}

/** Each turn of a commit's note with its ranges in `repoPath` parsed once (a blame asks per line). */
function turnSpans(note: CommitNote | undefined, repoPath: string): CommitSpans {
  const turns = note?.turns ?? [];
  return {
    turns: turns.map((turn) => ({ turn, spans: parseRanges(turn.files[repoPath] ?? '') })),
    unlisted: turns.some((turn) => (turn.moreFiles ?? 0) > 0 && turn.files[repoPath] === undefined),
  };
}
