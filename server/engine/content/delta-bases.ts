// Where the packer looks for a content's base: the nearest version of the same path already in
// the store. The turns that reference a content (blob_refs) say where it was seen: an after-
// content's nearest version is the before-content of the same entry (for a rename or move, the
// source's); an original's is the last version of its path in the session's earlier turns.
import type { State } from '../../protocol.js';
import type { EntryRow, Store } from '../db/store.js';

/** Turns of a content looked at, and earlier turns searched for a path's last version: bounded work per content. */
const REFERRING_TURNS = 4;
const EARLIER_TURNS = 32;

function fileHash(json: string | null): string | null {
  const state = json ? (JSON.parse(json) as State) : null;
  return state?.type === 'file' && state.hash ? state.hash : null;
}

/** The last file content `uri` held in the session's turns before `turnId` (newest first). */
function previousVersion(store: Store, turnId: string, uri: string, not: string): string | null {
  const turn = store.getTurn(turnId);
  if (!turn) return null;
  const earlier = store.st('SELECT turn_id FROM turns WHERE session_id = ? AND number < ? ORDER BY number DESC LIMIT ?')
    .all(turn.session_id, turn.number, EARLIER_TURNS) as { turn_id: string }[];
  for (const { turn_id } of earlier) {
    const entries = store.entriesOf(turn_id);
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      const seen = e.uri === uri ? [fileHash(e.after), fileHash(e.before)]
        : e.to_uri === uri ? [fileHash(e.to_after), fileHash(e.to_before)] : [];
      const found = seen.find((h) => h !== null && h !== not);
      if (found) return found;
    }
  }
  return null;
}

/** An after-content's nearest version: the entry's before-content (for a rename or move, the source's). */
function beforeOf(e: EntryRow, hash: string): (string | null)[] {
  const out: (string | null)[] = [];
  if (fileHash(e.after) === hash) out.push(fileHash(e.before));
  if (fileHash(e.to_after) === hash) out.push(fileHash(e.to_before), fileHash(e.before));
  return out;
}

/** An original's nearest version: the last one of its path in earlier turns. */
function earlierOf(store: Store, e: EntryRow, hash: string): (string | null)[] {
  const out: (string | null)[] = [];
  if (fileHash(e.before) === hash) out.push(previousVersion(store, e.turn_id, e.uri, hash));
  if (e.to_uri && fileHash(e.to_before) === hash) out.push(previousVersion(store, e.turn_id, e.to_uri, hash));
  return out;
}

/** Hashes of contents that are likely near `hash` (other versions of its paths), nearest first. */
export function baseCandidates(store: Store, hash: string): string[] {
  const turns = store.st('SELECT turn_id FROM blob_refs WHERE hash = ? LIMIT ?').all(hash, REFERRING_TURNS) as { turn_id: string }[];
  const entries = turns.flatMap(({ turn_id }) => store.entriesOf(turn_id));
  const found = new Set<string>();
  const add = (candidates: (string | null)[]) => { for (const c of candidates) if (c && c !== hash) found.add(c); };
  for (const e of entries) add(beforeOf(e, hash));
  // Searching earlier turns costs more: only for a content that no entry shows as an after-content.
  if (found.size === 0) for (const e of entries) add(earlierOf(store, e, hash));
  return [...found];
}
