// The one owner of turn state: the store's active agent turn of each session
// (`sessions.active_turn_id`) and the in-memory view of every turn being recorded (what it has
// captured, its contents read so far, the host's step). A turn begins here, is resumed here
// after a crash, and ends here; nothing else looks a session's active turn up by hand.
import type { LineCounts, State, StepRef, TurnKind } from '../../protocol.js';
import { ContentCache } from '../content/content-cache.js';
import type { Store } from '../db/store.js';
import type { StoredTurn } from '../db/turns.js';
import type { Events } from '../events.js';
import { newId } from '../ids.js';

export interface TurnContext {
  turnId: string;
  sessionId: string;
  kind: TurnKind;
  seq: number;
  /** URIs whose turn-start state is already recorded (the earliest state wins). */
  captured: Set<string>;
  /** Contents read while recording, for the commit's line counts. */
  contents: ContentCache;
  /**
   * Files a rollback put in place from verified contents (only rollback turns fill it): their
   * commit takes them as placed rather than reading them back.
   */
  placed: Map<string, State>;
  /**
   * Line counts already known for a change between two contents, by `linesKey` (a rollback
   * turn fills it from the changes it undoes, swapped): the commit takes them without decoding.
   */
  knownLines: Map<string, LineCounts>;
  /** The host's step (tool call) being recorded now: set for the one call that names it. */
  step: StepRef | null;
  /** A crash cut into it and it went on (recovery.ts): committed `interrupted` however it ends. */
  cutByCrash: boolean;
}

function freshContext(turnId: string, sessionId: string, kind: TurnKind, seq: number, captured: Set<string>) {
  const turn: TurnContext = {
    turnId,
    sessionId,
    kind,
    seq,
    captured,
    contents: new ContentCache(),
    placed: new Map(),
    knownLines: new Map(),
    step: null,
    cutByCrash: false,
  };
  return turn;
}

export class ActiveTurns {
  private readonly recording = new Map<string, TurnContext>();

  constructor(
    private readonly store: Store,
    private readonly events: Events,
    private readonly now: () => number,
  ) {}

  /** The id of the session's active agent turn, as the store has it (null: none). */
  activeId(sessionId: string): string | null {
    return this.store.sessions.get(sessionId)?.activeTurnId ?? null;
  }

  /** The session's active agent turn being recorded (null: none, or one this process does not record). */
  active(sessionId: string): TurnContext | null {
    const turnId = this.activeId(sessionId);
    return turnId ? (this.recording.get(turnId) ?? null) : null;
  }

  /** A turn being recorded, of any kind. */
  get(turnId: string): TurnContext | undefined {
    return this.recording.get(turnId);
  }

  /** The sessions that have a turn being recorded. */
  busySessions(): Set<string> {
    return new Set([...this.recording.values()].map((t) => t.sessionId));
  }

  /** Begins a turn: its row, the session's active turn (an agent turn) or the session claimed (a person's). */
  begin(sessionId: string, kind: TurnKind, title: string, rollbackOf?: string[]): TurnContext {
    const turnId = newId('t_');
    const { store } = this;
    store.relaxed(() => {
      const number = store.sessions.nextNumber(sessionId);
      store.turns.insert({
        turnId,
        sessionId,
        number,
        kind,
        rollbackOf: rollbackOf ?? null,
        title,
        startedAt: this.now(),
      });
      if (kind === 'agent') store.sessions.setActiveTurn(sessionId, turnId);
      // Only a person rolls back (the console's routes, the library): the session is theirs from now on.
      else store.sessions.claim(sessionId);
      store.sessions.touch(sessionId, this.now());
    });
    const turn = freshContext(turnId, sessionId, kind, 0, new Set());
    this.recording.set(turnId, turn);
    this.events.emit('turn-begun', { sessionId, turnId });
    return turn;
  }

  /** The in-memory view of a turn recorded by an earlier process (recovery after a crash). */
  resume(row: StoredTurn): TurnContext {
    const captured = new Set<string>();
    for (const e of this.store.entries.of(row.turnId)) {
      captured.add(e.uri);
      if (e.toUri) captured.add(e.toUri);
    }
    const turn = freshContext(row.turnId, row.sessionId, row.kind, this.store.entries.maxSeq(row.turnId), captured);
    this.recording.set(row.turnId, turn);
    return turn;
  }

  /** The turn being recorded, resumed from the store when this process has no view of it; null when it has ended. */
  recordingOrResumed(turnId: string): TurnContext | null {
    const known = this.recording.get(turnId);
    if (known) return known;
    const row = this.store.turns.get(turnId);
    return row && row.status === 'active' ? this.resume(row) : null;
  }

  /** Inside a commit's transaction: the session no longer has this turn as its active one. */
  release(sessionId: string, turnId: string): void {
    if (this.activeId(sessionId) === turnId) this.store.sessions.setActiveTurn(sessionId, null);
  }

  /** The turn is no longer being recorded (committed, dropped, or its session deleted). */
  end(turnId: string): void {
    this.recording.delete(turnId);
  }
}
