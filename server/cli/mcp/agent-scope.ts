// Whom `turnback mcp` acts for: the agent that calls it, never the person. Its session is the one
// its host names (Claude Code gives its MCP servers CLAUDE_CODE_SESSION_ID); it undoes agent
// turns only, by default those of that session, and an undo asked for during that session's
// active turn (the agent's own chat) undoes the turn before, recorded inside the asking turn.
import type { Turn } from '../../protocol.js';
import { refused } from '../client/errors.js';
import { chooseSession, locateTurn, type Located } from '../client/turn-ref.js';
import type { WorkspaceClient } from '../client/workspace.js';

/** The calling agent's session as its host tells its MCP servers; undefined when the host does not say. */
export function callerSessionOf(env: NodeJS.ProcessEnv): string | undefined {
  const id = env.CLAUDE_CODE_SESSION_ID?.trim();
  return id ? id : undefined;
}

export interface AgentTarget extends Located {
  /** The caller's active turn that asks (the undo is recorded in it), when the session is the caller's and has one. */
  asking?: string;
}

/** The session a tool addresses: the one named, else the caller's once it has turns here, else the most recent. */
async function sessionFor(ws: WorkspaceClient, named: string | undefined, caller: string | undefined) {
  if (named !== undefined || caller === undefined) return chooseSession(ws, named);
  const own = (await ws.sessions()).find((session) => session.sessionId === caller);
  if (!own) throw refused(`nothing is recorded for this agent's session ${caller} in ${ws.workspace.root}`, 'NO_TURNS');
  return own;
}

function refuseNonAgent(turn: Turn): void {
  if (turn.kind === 'agent') return;
  const what =
    turn.kind === 'rollback'
      ? "a rollback turn the person made: the agent never undoes the person's undo"
      : `a ${turn.kind} turn`;
  throw refused(
    `#${turn.number} is ${what}; only the person can take it back, with turnback redo or the console`,
    'NOT_AGENT_TURN',
    {
      turnId: turn.turnId,
    },
  );
}

/**
 * The agent turn an MCP undo means. Named: that turn, refused unless it is an agent turn that is
 * not running. Not named (or `last`): the latest agent turn of the session not yet undone, before
 * the asking turn when the caller asks during its own active turn.
 */
export async function agentUndoTarget(
  ws: WorkspaceClient,
  ref: string | undefined,
  sessionFlag: string | undefined,
  caller: string | undefined,
): Promise<AgentTarget> {
  const session = await sessionFor(ws, sessionFlag, caller);
  const asking = session.sessionId === caller && session.activeTurnId ? session.activeTurnId : undefined;
  const refuseRunning = (turn: Turn) => {
    if (turn.status !== 'active' && session.activeTurnId !== turn.turnId) return;
    const why = turn.turnId === asking ? 'it is the turn asking' : 'an active turn is never undone';
    throw refused(`turn #${turn.number} is still running: ${why}`, 'TURN_ACTIVE', { turnId: turn.turnId });
  };
  if (ref !== undefined && ref !== 'last') {
    const located = await locateTurn(ws, ref, sessionFlag ?? (caller === undefined ? undefined : session.sessionId));
    refuseNonAgent(located.turn);
    refuseRunning(located.turn);
    return located.session.sessionId === session.sessionId ? { ...located, asking } : located;
  }
  const agentTurns = (await ws.turns(session.sessionId)).filter((turn) => turn.kind === 'agent').reverse();
  const earlier = agentTurns.filter((turn) => turn.turnId !== asking);
  if (earlier[0] && earlier[0].status === 'active') refuseRunning(earlier[0]);
  const turn = earlier.find((candidate) => candidate.status !== 'rolled-back');
  if (!turn)
    throw refused(`nothing to undo in session ${session.sessionId}: every agent turn is undone`, 'NOTHING_TO_UNDO');
  return { session, turn, asking };
}
