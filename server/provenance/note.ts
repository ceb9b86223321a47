// A commit's note: its JSON form, read back leniently (a teammate's newer or damaged note is skipped, not fatal).
import type { CommitNote, NoteTurn } from '../protocol.js';

export const NOTES_REF = 'refs/notes/turnback';
/** Where `share on`'s fetch refspec puts each remote's notes; readers union them with the local ref. */
export const REMOTE_NOTES_PREFIX = 'refs/notes/turnback-remotes/';
/**
 * Files listed per turn at most, so a sweeping turn's note stays bounded. Past it, blame calls a
 * line of an unlisted file `unlisted` (maybe that turn's), never the person's.
 */
export const MAX_FILES_PER_TURN = 200;
export const MAX_PROMPT_CHARS = 1000;

export function formatNote(note: CommitNote): string {
  return JSON.stringify(note) + '\n';
}

/** One JSON note, or several concatenated by `git notes merge -s cat_sort_uniq`: their turns' union. */
export function parseNote(text: string): CommitNote | null {
  const turns: NoteTurn[] = [];
  let any = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Partial<CommitNote>;
      if (value.turnback !== 1 || !Array.isArray(value.turns)) continue;
      any = true;
      turns.push(...value.turns.filter(isTurn));
    } catch {
      /* not ours */
    }
  }
  return any ? { turnback: 1, turns: uniqueTurns(turns) } : null;
}

function isTurn(value: unknown): value is NoteTurn {
  const turn = value as NoteTurn;
  return (
    typeof turn?.id === 'string' &&
    typeof turn.host === 'string' &&
    typeof turn.files === 'object' &&
    turn.files !== null
  );
}

/** Turns by id, the first of each kept, ordered by time. */
export function uniqueTurns(turns: NoteTurn[]): NoteTurn[] {
  const seen = new Map<string, NoteTurn>();
  for (const turn of turns) if (!seen.has(turn.id)) seen.set(turn.id, turn);
  return [...seen.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
