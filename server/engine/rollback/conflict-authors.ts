// Who changed a conflicting path since the turns a rollback covers: the latest later turn (of
// any session) that changed it, when what it left there is what is on disk now. Otherwise the
// change was made outside any turn (the person's editor, another program) and no turn is named.
import type { ConflictTurn, State } from '../../protocol.js';
import type { EngineContext } from '../context.js';
import { sameForDrift } from '../record/path-state.js';
import type { TurnRow } from '../db/store.js';
import { toChange } from '../turns/turns.js';

interface LaterChange { turn_id: string; session_id: string; number: number; title: string; data: string }

export function conflictAuthor(ctx: EngineContext, uri: string, current: State, covered: TurnRow[]): ConflictTurn | undefined {
  const since = Math.max(...covered.map((turn) => turn.started_at));
  const row = ctx.store.db.prepare(`SELECT t.turn_id, t.session_id, t.number, t.title, c.data FROM changes c
    JOIN turns t ON t.turn_id = c.turn_id
    WHERE c.uri = ? AND t.started_at >= ? AND t.turn_id NOT IN (SELECT value FROM json_each(?))
    ORDER BY t.started_at DESC, t.number DESC LIMIT 1`).get(uri, since, JSON.stringify(covered.map((turn) => turn.turn_id))) as LaterChange | undefined;
  if (!row || !sameForDrift(current, toChange({ turn_id: row.turn_id, ord: 0, uri, data: row.data }).after)) return undefined;
  return { turnId: row.turn_id, sessionId: row.session_id, number: row.number, title: row.title };
}
