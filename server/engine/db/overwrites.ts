// Files a rollback writes over in place (paths/overwrite.ts), each with the state it held and
// the state it is to hold. They are named in the synced transaction that records the rollback
// turn's before-states, so before the first byte is written; the turn's commit drops them. What
// an open after a crash finds here names every file the crash may have cut short in the middle
// of its write (rollback/overwrite-repair.ts finishes it).
import type { State } from '../../protocol.js';
import { packStateOf, readState } from './record-codec.js';
import type { Statements } from './statements.js';

export interface Overwrite {
  uri: string;
  /** What the file held when the rollback recorded it (its content is in the store). */
  before: State;
  /** What the rollback writes there (its content is in the store). */
  target: State;
}

/** A turn's integer key (turns.id) from its id. */
const TURN = '(SELECT id FROM turns WHERE turn_id = ?)';

export class Overwrites {
  constructor(private readonly store: Statements) {}

  add(turnId: string, rows: Overwrite[]): void {
    const insert = this.store.st(
      `INSERT OR REPLACE INTO overwrites (turn, uri, before, target) VALUES (${TURN}, ?, ?, ?)`,
    );
    for (const row of rows) insert.run(turnId, row.uri, packStateOf(row.before), packStateOf(row.target));
  }

  of(turnId: string): Overwrite[] {
    const rows = this.store
      .st(`SELECT uri, before, target FROM overwrites WHERE turn = ${TURN} ORDER BY uri`)
      .all(turnId) as { uri: string; before: Buffer; target: Buffer }[];
    return rows.map((r) => ({
      uri: r.uri,
      before: readState(r.before) as State,
      target: readState(r.target) as State,
    }));
  }

  /** The turn's files are no longer being written (it committed, or was dropped). */
  clear(turnId: string): void {
    this.store.st(`DELETE FROM overwrites WHERE turn = ${TURN}`).run(turnId);
  }
}
