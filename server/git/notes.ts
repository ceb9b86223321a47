// The turnback notes of a repository: the local ref and every remote's ref that `share on` fetches, read as one.
import type { CommitNote } from '../protocol.js';
import { NOTES_REF, REMOTE_NOTES_PREFIX, formatNote, parseNote, uniqueTurns } from '../provenance/note.js';
import { catFiles, git, gitMaybe } from './git.js';

/** The notes refs to read: local first, then each remote's. */
export async function notesRefs(cwd: string): Promise<string[]> {
  const out = (await gitMaybe(cwd, ['for-each-ref', '--format=%(refname)', NOTES_REF, REMOTE_NOTES_PREFIX])) ?? '';
  return out.split('\n').filter((ref) => ref !== '');
}

/** commit sha -> note blob, for every commit noted in `ref`. */
async function noteBlobs(cwd: string, ref: string): Promise<Map<string, string>> {
  const out = (await gitMaybe(cwd, ['notes', '--ref', ref, 'list'])) ?? '';
  const blobs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [blob, commit] = line.split(' ');
    if (blob && commit) blobs.set(commit, blob);
  }
  return blobs;
}

/** commit sha -> the note blobs of every notes ref that notes it (local first). */
export async function noteIndex(cwd: string): Promise<Map<string, string[]>> {
  const perCommit = new Map<string, string[]>();
  const refs = await notesRefs(cwd);
  for (const blobs of await Promise.all(refs.map((ref) => noteBlobs(cwd, ref)))) {
    for (const [commit, blob] of blobs) perCommit.set(commit, [...(perCommit.get(commit) ?? []), blob]);
  }
  return perCommit;
}

/** The notes of `commits` (all noted commits when omitted), every ref's turns unioned. */
export async function readNotes(
  cwd: string,
  commits?: Iterable<string>,
  index?: Map<string, string[]>,
): Promise<Map<string, CommitNote>> {
  const all = index ?? (await noteIndex(cwd));
  const wanted = commits ? new Set(commits) : null;
  const perCommit = wanted ? new Map([...all].filter(([commit]) => wanted.has(commit))) : all;
  const texts = await catFiles(cwd, [...new Set([...perCommit.values()].flat())]);
  const notes = new Map<string, CommitNote>();
  for (const [commit, blobs] of perCommit) {
    const parsed = blobs.map((blob) => parseNote(texts.get(blob) ?? '')).filter((n): n is CommitNote => n !== null);
    if (parsed.length > 0) notes.set(commit, { turnback: 1, turns: uniqueTurns(parsed.flatMap((n) => n.turns)) });
  }
  return notes;
}

/** Writes `commit`'s note in the local ref, joined with the turns a note already there holds (a teammate's). */
export async function writeNote(cwd: string, commit: string, note: CommitNote): Promise<void> {
  const there = parseNote((await gitMaybe(cwd, ['notes', '--ref', NOTES_REF, 'show', commit])) ?? '');
  const turns = uniqueTurns([...note.turns, ...(there?.turns ?? [])]);
  await git(cwd, ['notes', '--ref', NOTES_REF, 'add', '-f', '-F', '-', commit], formatNote({ turnback: 1, turns }));
}
