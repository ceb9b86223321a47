// Schema 7's migration: the commands a turn kept as one JSON column become rows of `commands`,
// in their order, each text bounded as new ones are.
import type Database from 'better-sqlite3';
import { boundedCommand, type StoredCommand } from './commands.js';

export function importCommandJson(db: Database.Database): void {
  const insert =
    db.prepare(`INSERT INTO commands (turn_id, ord, exec_id, tool, command, command_bytes, at, ended_at, changed, skipped, scanned)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const json = db.prepare('SELECT exec_commands FROM turns WHERE turn_id = ?').pluck();
  const turnIds = db.prepare("SELECT turn_id FROM turns WHERE exec_commands <> '[]'").pluck().all() as string[];
  // One turn's JSON in memory at a time (one could hold many megabytes of commands).
  for (const turnId of turnIds) {
    const commands = JSON.parse(json.get(turnId) as string) as Omit<StoredCommand, 'commandBytes'>[];
    commands.forEach((c, i) => {
      const { command, commandBytes } = boundedCommand(c.command ?? '');
      insert.run(
        turnId,
        i + 1,
        c.execId,
        c.tool ?? '',
        command,
        commandBytes,
        c.at ?? '',
        c.endedAt ?? null,
        c.changed == null ? null : JSON.stringify(c.changed),
        c.skipped ? JSON.stringify(c.skipped) : null,
        c.scanned ? 1 : 0,
      );
    });
  }
}
