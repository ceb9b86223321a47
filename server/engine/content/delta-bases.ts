// Where the packer looks for a content's base: the nearest version of the same path already in
// the store. The turns that reference a content (blob_refs) say where it was seen: an after-
// content's nearest version is the before-content of the same entry (for a rename or move, the
// source's); an original's is the last version of its path in the session's earlier turns.
// A pass of the packer looks at the same few turns for every content it packs (those of the
// turn just ended), and the next pass at nearly the same ones (the 32 before it), so each ended
// turn's entries are read once (`TurnMemo`, kept by the packer), not once per content or pass.
import type { State } from '../../protocol.js';
import type { StoredEntry } from '../db/entries.js';
import type { Store } from '../db/store.js';
import type { StoredTurn } from '../db/turns.js';

/** Turns of a content looked at, and earlier turns searched for a path's last version: bounded work per content. */
const REFERRING_TURNS = 4;
const EARLIER_TURNS = 32;
/** Entries the memo holds at most during a pass (besides the turns that pass uses, whatever their size)... */
const MEMO_ENTRIES = 16_384;
/** ...and kept from one pass to the next: 32 turns of 64 writes (a service holds one memo per workspace). */
const KEPT_ENTRIES = 2_048;

function fileHash(state: State): string | null {
  return state?.type === 'file' && state.hash ? state.hash : null;
}

/** What the lookup reads of an entry: its paths and states. */
type EntryStates = Pick<StoredEntry, 'uri' | 'toUri' | 'before' | 'after' | 'toBefore' | 'toAfter'>;

/** An entry's file hashes, taken from its states the first time the entry is looked at. */
interface Hashes {
  before: string | null;
  after: string | null;
  toBefore: string | null;
  toAfter: string | null;
}

/** One turn's entries, looked up by content and by path; each state is parsed once. */
class TurnEntries {
  private readonly parsed: (Hashes | undefined)[];
  private byAfter?: Map<string, (string | null)[]>;
  private byBefore?: Map<string, string[]>;
  private byUri?: Map<string, { at: number; to: boolean }[]>;
  private earlierTurns?: string[];

  constructor(
    readonly turnId: string,
    readonly rows: EntryStates[],
    /** The turn's row as it was when its entries were read (undefined: the turn is gone). */
    private readonly turn: StoredTurn | undefined,
  ) {
    this.parsed = new Array<Hashes | undefined>(rows.length);
  }

  /** Whether the turn had ended when its entries were read (those no longer change). */
  get ended(): boolean {
    return (this.turn?.endedAt ?? null) !== null;
  }

  private hashes(i: number): Hashes {
    let h = this.parsed[i];
    if (!h) {
      const e = this.rows[i];
      h = {
        before: fileHash(e.before),
        after: fileHash(e.after),
        toBefore: fileHash(e.toBefore),
        toAfter: fileHash(e.toAfter),
      };
      this.parsed[i] = h;
    }
    return h;
  }

  /** An after-content's nearest versions, in entry order: the entry's before-content (for a rename or move, the source's). */
  nearestOf(hash: string): (string | null)[] {
    if (!this.byAfter) {
      const index = new Map<string, (string | null)[]>();
      const push = (key: string | null, ...values: (string | null)[]) => {
        if (key === null) return;
        const list = index.get(key);
        if (list) list.push(...values);
        else index.set(key, values);
      };
      for (let i = 0; i < this.rows.length; i++) {
        const h = this.hashes(i);
        push(h.after, h.before);
        push(h.toAfter, h.toBefore, h.before);
      }
      this.byAfter = index;
    }
    return this.byAfter.get(hash) ?? [];
  }

  /** The paths an original was the before-content of, in entry order. */
  originsOf(hash: string): string[] {
    if (!this.byBefore) {
      const index = new Map<string, string[]>();
      const push = (key: string | null, uri: string) => {
        if (key === null) return;
        const list = index.get(key);
        if (list) list.push(uri);
        else index.set(key, [uri]);
      };
      for (let i = 0; i < this.rows.length; i++) {
        const e = this.rows[i];
        const h = this.hashes(i);
        push(h.before, e.uri);
        if (e.toUri) push(h.toBefore, e.toUri);
      }
      this.byBefore = index;
    }
    return this.byBefore.get(hash) ?? [];
  }

  /** The last file content `uri` held in this turn other than `not`: its entries newest first, each's after-state, then its before-state. */
  lastVersion(uri: string, not: string): string | null {
    if (!this.byUri) {
      // Only the paths are indexed: an earlier turn's states are parsed only where its path is asked for.
      const index = new Map<string, { at: number; to: boolean }[]>();
      const push = (key: string, at: number, to: boolean) => {
        const list = index.get(key);
        if (list) list.push({ at, to });
        else index.set(key, [{ at, to }]);
      };
      for (let i = this.rows.length - 1; i >= 0; i--) {
        const e = this.rows[i];
        push(e.uri, i, false);
        if (e.toUri !== null && e.toUri !== e.uri) push(e.toUri, i, true);
      }
      this.byUri = index;
    }
    for (const { at, to } of this.byUri.get(uri) ?? []) {
      const h = this.hashes(at);
      const found = [to ? h.toAfter : h.after, to ? h.toBefore : h.before].find((c) => c !== null && c !== not);
      if (found) return found;
    }
    return null;
  }

  /** The session's turns before this one, newest first (EARLIER_TURNS at most); empty when the turn is gone. */
  earlier(store: Store): string[] {
    if (!this.earlierTurns) {
      const turn = this.turn;
      this.earlierTurns = turn ? store.turns.earlierIds(turn.sessionId, turn.number, EARLIER_TURNS) : [];
    }
    return this.earlierTurns;
  }
}

/**
 * The turns the packer has read, by id, the most recently used last: bounded by the entries
 * they hold (the newest is always kept, as the lookup needs it). A turn that had not ended when
 * read (its entries may still grow) is kept for one pass only (`nextPass`); an ended one until
 * evicted. The memo only points at candidates: a turn pruned since names contents that are
 * gone, which the packer skips, and whichever base it chooses, packOne checks it is still there
 * before using it. Measured on item 15's 10-file turns on W2: the base lookups of a pass took
 * 3.8 ms when every pass read its 32 earlier turns afresh.
 */
export class TurnMemo {
  private readonly turns = new Map<string, TurnEntries>();
  private held = 0;
  /** The turns asked for since the last nextPass: the next pass asks for them again. */
  private readonly usedInPass = new Set<string>();

  constructor(private readonly store: Store) {}

  of(turnId: string): TurnEntries {
    this.usedInPass.add(turnId);
    let turn = this.turns.get(turnId);
    if (turn) {
      this.turns.delete(turnId);
      this.turns.set(turnId, turn);
      return turn;
    }
    const row = this.store.turns.get(turnId);
    const rows: EntryStates[] = this.store.entries.of(turnId);
    turn = new TurnEntries(turnId, rows, row);
    this.turns.set(turnId, turn);
    this.held += turn.rows.length;
    for (const [id, old] of this.turns) {
      if (this.held <= MEMO_ENTRIES || this.turns.size <= 1) break;
      // A turn this pass uses stays, whatever its size: a content that two 10,000-entry turns
      // refer to (a turn and its undo) would otherwise read both again for each content.
      if (this.usedInPass.has(id)) continue;
      this.turns.delete(id);
      this.held -= old.rows.length;
    }
    return turn;
  }

  /**
   * Before a pass: the turns that were still going when read are read again when next asked
   * for, and the least recently used go down to KEPT_ENTRIES, except the ended turns the pass
   * before used, whatever their size: a 5,000-file turn is packed over hundreds of passes, and
   * reading its entries again for each took 10 s. A pass that uses none lets them go too.
   */
  nextPass(): void {
    for (const [id, turn] of this.turns) {
      if (turn.ended && (this.held <= KEPT_ENTRIES || this.usedInPass.has(id))) continue;
      this.turns.delete(id);
      this.held -= turn.rows.length;
    }
    this.usedInPass.clear();
  }
}

/** The last file content `uri` held in the session's turns before `turnId` (newest first). */
function previousVersion(store: Store, memo: TurnMemo, turnId: string, uri: string, not: string): string | null {
  for (const earlier of memo.of(turnId).earlier(store)) {
    const found = memo.of(earlier).lastVersion(uri, not);
    if (found) return found;
  }
  return null;
}

/** Hashes of contents that are likely near `hash` (other versions of its paths), nearest first. */
export function baseCandidates(store: Store, hash: string, memo: TurnMemo): string[] {
  const turns = store.entries.turnsReferring(hash, REFERRING_TURNS).map((turnId) => memo.of(turnId));
  const found = new Set<string>();
  const add = (candidates: (string | null)[]) => {
    for (const c of candidates) if (c && c !== hash) found.add(c);
  };
  for (const turn of turns) add(turn.nearestOf(hash));
  // Searching earlier turns costs more: only for a content that no entry shows as an after-content.
  if (found.size === 0) {
    for (const turn of turns)
      for (const uri of turn.originsOf(hash)) add([previousVersion(store, memo, turn.turnId, uri, hash)]);
  }
  return [...found];
}
