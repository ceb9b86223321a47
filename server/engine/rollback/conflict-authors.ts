// Who changed a conflicting path since the turns a rollback covers: the latest later turn (of
// any session) that changed it, when what it left there is what is on disk now. Otherwise the
// change was made outside any turn (the person's editor, another program) and no turn is named.
import type { ConflictTurn, State } from '../../protocol.js';
import type { Turns, StoredTurn } from '../db/turns.js';
import { sameForDrift } from '../state/state.js';

/** The authors of these conflicting paths (by URI; a path with none is absent), from one query for them all. */
export function conflictAuthors(
  turns: Turns,
  conflicts: { uri: string; current: State }[],
  covered: StoredTurn[],
): Map<string, ConflictTurn> {
  const authors = new Map<string, ConflictTurn>();
  if (conflicts.length === 0) return authors;
  const since = Math.max(...covered.map((turn) => turn.startedAt));
  const later = turns.latestChangesSince(
    [...new Set(conflicts.map((c) => c.uri))],
    since,
    covered.map((turn) => turn.turnId),
  );
  const latest = new Map(later.map((row) => [row.uri, row]));
  for (const { uri, current } of conflicts) {
    const row = latest.get(uri);
    if (!row || !sameForDrift(current, row.change.after)) continue;
    authors.set(uri, { turnId: row.turnId, sessionId: row.sessionId, number: row.number, title: row.title });
  }
  return authors;
}
