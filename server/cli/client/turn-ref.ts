// A `<turn>` on the command line: its number in the session, `last`, or a unique prefix of its
// id (docs/api.md "CLI: undo from the terminal"). The session is `--session` (an id or a unique
// prefix of one) or the workspace's most recently active one.
import type { Session, Turn } from '../../protocol.js';
import { refused, usageError, CliError, EXIT_USAGE } from './errors.js';
import type { WorkspaceClient } from './workspace.js';

export interface Located {
  session: Session;
  turn: Turn;
}

/** The session that holds the workspace's pins (docs/api.md "Pins"): the person's, not an agent's. */
export const PINS_SESSION_ID = 'turnback-pins';

/**
 * The sessions, newest activity first; `--session` picks one by id or unique prefix. Without it,
 * the pins' session is passed over: pinning is no agent work, so `undo` and `log` keep addressing
 * the agent's session after a pin.
 */
export async function chooseSession(ws: WorkspaceClient, wanted: string | undefined): Promise<Session> {
  const sessions = await ws.sessions();
  if (wanted === undefined) {
    const agentSessions = sessions.filter((session) => session.sessionId !== PINS_SESSION_ID);
    if (agentSessions.length > 0) return agentSessions[0];
    if (sessions.length === 0)
      throw refused(`nothing is recorded in the workspace ${ws.workspace.root} yet`, 'NO_SESSIONS');
    return sessions[0];
  }
  const exact = sessions.find((session) => session.sessionId === wanted);
  if (exact) return exact;
  const matches = sessions.filter((session) => session.sessionId.startsWith(wanted));
  if (matches.length === 1) return matches[0];
  throw new CliError(
    matches.length === 0
      ? `no session ${wanted} in this workspace`
      : `${wanted} names ${matches.length} sessions: give more of its id`,
    EXIT_USAGE,
    'SESSION_NOT_FOUND',
  );
}

const NUMBER = /^[1-9][0-9]{0,8}$/;

/** The turn a reference names. A number or `last` is of `session`; an id prefix may be of any session when none was chosen. */
export async function locateTurn(ws: WorkspaceClient, ref: string, sessionFlag: string | undefined): Promise<Located> {
  if (ref === '') throw usageError('a turn is its number, last, or a prefix of its id');
  const session = await chooseSession(ws, sessionFlag);
  if (ref === 'last') {
    const [turn] = await ws.turns(session.sessionId, 1);
    if (!turn) throw refused(`the session ${session.sessionId} has no turns`, 'NO_TURNS');
    return { session, turn };
  }
  if (NUMBER.test(ref)) {
    const turn = (await ws.turns(session.sessionId)).find((candidate) => candidate.number === Number(ref));
    if (!turn) throw new CliError(`the session ${session.sessionId} has no turn ${ref}`, EXIT_USAGE, 'TURN_NOT_FOUND');
    return { session, turn };
  }
  const searched = sessionFlag === undefined ? await ws.sessions() : [session];
  const found: Located[] = [];
  for (const candidate of searched) {
    for (const turn of await ws.turns(candidate.sessionId)) {
      if (turn.turnId.startsWith(ref) || turn.turnId.startsWith(`t_${ref}`)) found.push({ session: candidate, turn });
    }
  }
  if (found.length === 1) return found[0];
  throw new CliError(
    found.length === 0 ? `no turn ${ref} in this workspace` : `${ref} names ${found.length} turns: give more of its id`,
    EXIT_USAGE,
    'TURN_NOT_FOUND',
  );
}

/** The shortest id length (at least `min`) at which these ids are told apart, as `git log --oneline` shortens hashes. */
export function shortIdLength(ids: readonly string[], min = 8): number {
  const longest = Math.max(min, ...ids.map((id) => id.length));
  for (let length = min; length < longest; length++) {
    if (new Set(ids.map((id) => id.slice(0, length))).size === new Set(ids).size) return length;
  }
  return longest;
}
