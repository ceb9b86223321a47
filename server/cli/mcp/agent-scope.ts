// Whom `turnback mcp` acts for: the agent that calls it, never the person. Its session is the one
// its host names (Claude Code gives its MCP servers CLAUDE_CODE_SESSION_ID), else the one whose
// active turn has this very tool call open (the host's PreToolUse hook recorded it); it undoes
// agent turns only, by default those of that session, and an undo asked for during that
// session's active turn (the agent's own chat) undoes the turn before, recorded inside it.
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
  /** The caller's session as found here (undefined: not known). */
  caller?: string;
}

/**
 * The caller's session in this workspace: the host's, when it has turns here; else the one
 * session whose active turn has this tool (`mcp__<server>__<tool>`) open as a command. A host
 * may start its MCP servers before it resumes a session (Claude Code's `--continue`), so the
 * environment can name a session the hooks never used. Undefined when neither tells.
 */
export async function findCaller(
  ws: WorkspaceClient,
  fromHost: string | undefined,
  tool: string,
): Promise<string | undefined> {
  const sessions = await ws.sessions();
  if (fromHost !== undefined && sessions.some((session) => session.sessionId === fromHost)) return fromHost;
  const thisTool = new RegExp(`^mcp__.+__${tool}$`);
  const asking: string[] = [];
  for (const session of sessions) {
    if (!session.activeTurnId) continue;
    const active = (await ws.turns(session.sessionId, 1)).find((turn) => turn.turnId === session.activeTurnId);
    if (active?.execCommands.some((command) => command.endedAt === null && thisTool.test(command.tool)))
      asking.push(session.sessionId);
  }
  return asking.length === 1 ? asking[0] : undefined;
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
  const session =
    sessionFlag === undefined && caller !== undefined
      ? (await ws.sessions()).find((candidate) => candidate.sessionId === caller)!
      : await chooseSession(ws, sessionFlag);
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
    return located.session.sessionId === session.sessionId ? { ...located, asking, caller } : { ...located, caller };
  }
  const agentTurns = (await ws.turns(session.sessionId)).filter((turn) => turn.kind === 'agent').reverse();
  const earlier = agentTurns.filter((turn) => turn.turnId !== asking);
  if (earlier[0] && earlier[0].status === 'active') refuseRunning(earlier[0]);
  const turn = earlier.find((candidate) => candidate.status !== 'rolled-back');
  if (!turn)
    throw refused(`nothing to undo in session ${session.sessionId}: every agent turn is undone`, 'NOTHING_TO_UNDO');
  return { session, turn, asking, caller };
}
