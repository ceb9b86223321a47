// A turn's commands (exec), one row each: recording the 500th command costs what the 1st did,
// and a listing reads each command's first characters only. The text is kept up to
// COMMAND_TEXT_LIMIT bytes, with the size it had; `changed` and `skipped` are JSON columns
// read here alone.
import type { Statements } from './statements.js';
import { COMMAND_PREVIEW_LIMIT, COMMAND_TEXT_LIMIT, type ExecCommand, type ExecSkipped } from '../../protocol.js';

/** A command as recorded: `scanned` once its before scan has completed (never on the wire). */
export interface StoredCommand extends ExecCommand {
  scanned?: boolean;
}

/** What changes once a command is recorded. */
export type CommandProgress = Pick<StoredCommand, 'endedAt' | 'changed' | 'skipped' | 'scanned'>;

interface CommandRow {
  exec_id: string;
  tool: string;
  command: string;
  command_bytes: number;
  at: string;
  ended_at: string | null;
  changed: string | null;
  skipped: string | null;
  scanned: number;
}

/** `text` cut to at most `limit` UTF-8 bytes, never inside a character. */
export function cutToBytes(text: string, limit: number): string {
  // Each UTF-16 unit takes at least one byte: the first `limit` units hold all that can fit.
  let head = text.length > limit ? text.slice(0, limit) : text;
  const last = head.charCodeAt(head.length - 1);
  if (head.length < text.length && last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  if (Buffer.byteLength(head) <= limit) return head;
  const bytes = Buffer.from(head);
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** The row's text as kept: `commandBytes` is the size it was given with, `truncated` when less is kept. */
export function boundedCommand(command: string): { command: string; commandBytes: number } {
  return { command: cutToBytes(command, COMMAND_TEXT_LIMIT), commandBytes: Buffer.byteLength(command) };
}

function toCommand(row: CommandRow): StoredCommand {
  const command: StoredCommand = {
    execId: row.exec_id,
    tool: row.tool,
    command: row.command,
    commandBytes: row.command_bytes,
    at: row.at,
    endedAt: row.ended_at,
    changed: row.changed === null ? null : (JSON.parse(row.changed) as string[]),
  };
  if (Buffer.byteLength(row.command) < row.command_bytes) command.truncated = true;
  if (row.skipped !== null) command.skipped = JSON.parse(row.skipped) as ExecSkipped[];
  if (row.scanned) command.scanned = true;
  return command;
}

const COLUMNS = 'exec_id, tool, command, command_bytes, at, ended_at, changed, skipped, scanned';

export class Commands {
  constructor(private readonly store: Statements) {}

  /** Records a new command of the turn, its text bounded, after the turn's others. */
  add(turnId: string, command: { execId: string; tool: string; command: string; at: string }): void {
    const { command: text, commandBytes } = boundedCommand(command.command);
    this.store
      .st(
        `INSERT INTO commands (turn_id, ord, exec_id, tool, command, command_bytes, at)
      VALUES (?, (SELECT COALESCE(MAX(ord), 0) + 1 FROM commands WHERE turn_id = ?), ?, ?, ?, ?, ?)`,
      )
      .run(turnId, turnId, command.execId, command.tool, text, commandBytes, command.at);
  }

  /** One command with its whole kept text. */
  get(turnId: string, execId: string): StoredCommand | undefined {
    const row = this.store
      .st(`SELECT ${COLUMNS} FROM commands WHERE turn_id = ? AND exec_id = ?`)
      .get(turnId, execId) as CommandRow | undefined;
    return row && toCommand(row);
  }

  last(turnId: string): StoredCommand | undefined {
    const row = this.store
      .st(`SELECT ${COLUMNS} FROM commands WHERE turn_id = ? ORDER BY ord DESC LIMIT 1`)
      .get(turnId) as CommandRow | undefined;
    return row && toCommand(row);
  }

  /** The turn's commands in order, each text cut to COMMAND_PREVIEW_LIMIT characters (what a listing shows). */
  previews(turnId: string): StoredCommand[] {
    const rows = this.store
      .st(
        `SELECT exec_id, tool, substr(command, 1, ${COMMAND_PREVIEW_LIMIT}) AS command, command_bytes, at, ended_at,
      changed, skipped, scanned FROM commands WHERE turn_id = ? ORDER BY ord`,
      )
      .all(turnId) as CommandRow[];
    return rows.map(toCommand);
  }

  update(turnId: string, execId: string, progress: CommandProgress): void {
    this.store
      .st('UPDATE commands SET ended_at = ?, changed = ?, skipped = ?, scanned = ? WHERE turn_id = ? AND exec_id = ?')
      .run(
        progress.endedAt,
        progress.changed === null ? null : JSON.stringify(progress.changed),
        progress.skipped ? JSON.stringify(progress.skipped) : null,
        progress.scanned ? 1 : 0,
        turnId,
        execId,
      );
  }

  removeTurn(turnId: string): void {
    this.store.st('DELETE FROM commands WHERE turn_id = ?').run(turnId);
  }
}
