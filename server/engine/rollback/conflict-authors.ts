// Who changed a conflicting path since the turns a rollback covers: the latest later turn (of
// any session) that changed it, when what it left there is what is on disk now. Otherwise the
// change was made outside any turn (the person's editor, another program) and no turn is named.
import type { ConflictTurn, State } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import { sameForDrift } from '../record/path-state.js';
import type { TurnRow } from '../db/store.js';
import { toChange } from '../turns/turns.js';
import { unpackChange } from '../db/record-codec.js';

interface LaterChange {
  uri: string;
  turn_id: string;
  session_id: string;
  number: number;
  title: string;
  data: Buffer;
}

/** The authors of these conflicting paths (by URI; a path with none is absent), from one query for them all. */
export function conflictAuthors(
  ctx: EngineContext,
  conflicts: { uri: string; current: State }[],
  covered: TurnRow[],
): Map<string, ConflictTurn> {
  const authors = new Map<string, ConflictTurn>();
  if (conflicts.length === 0) return authors;
  const since = Math.max(...covered.map((turn) => turn.started_at));
  // Each path's latest later change: the first of its rows in the order the window sorts them.
  const rows = ctx.store
    .st(
      `SELECT uri, turn_id, session_id, number, title, data FROM (
      SELECT c.uri, t.turn_id, t.session_id, t.number, t.title, c.data,
        ROW_NUMBER() OVER (PARTITION BY c.uri ORDER BY t.started_at DESC, t.number DESC) AS latest
      FROM changes c JOIN turns t ON t.turn_id = c.turn_id
      WHERE c.uri IN (SELECT value FROM json_each(?)) AND t.started_at >= ? AND t.turn_id NOT IN (SELECT value FROM json_each(?)))
    WHERE latest = 1`,
    )
    .all(
      JSON.stringify([...new Set(conflicts.map((c) => c.uri))]),
      since,
      JSON.stringify(covered.map((turn) => turn.turn_id)),
    ) as LaterChange[];
  const latest = new Map(rows.map((row) => [row.uri, row]));
  for (const { uri, current } of conflicts) {
    const row = latest.get(uri);
    if (
      !row ||
      !sameForDrift(current, toChange({ turn_id: row.turn_id, ord: 0, uri, data: unpackChange(row.data, uri) }).after)
    )
      continue;
    authors.set(uri, { turnId: row.turn_id, sessionId: row.session_id, number: row.number, title: row.title });
  }
  return authors;
}
