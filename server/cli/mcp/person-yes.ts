// `force` or keep-both over a path someone other than the calling agent changed (the person's
// hand, another session, a rollback the person made) is the person's call, not the agent's:
// asked through MCP elicitation when the host offers it, else refused with the line the person
// can run in a terminal themselves.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { shellQuote } from '../../adapters/claude-code/settings.js';
import type { Plan, Turn } from '../../protocol.js';
import { refused } from '../client/errors.js';
import type { UndoOptions } from '../client/operations.js';
import type { WorkspaceClient } from '../client/workspace.js';
import type { AgentTarget } from './agent-scope.js';

/**
 * The conflicting paths the caller did not make what they are: a later step of the same turn,
 * or a later agent turn of the caller's session (of any session when the caller is not known), is
 * the agent's own; a change outside any turn, a rollback turn or another session's turn is not.
 */
export async function changedByOthers(ws: WorkspaceClient, plan: Plan, caller: string | undefined): Promise<string[]> {
  const kinds = new Map<string, Turn['kind']>();
  const kindOf = async (sessionId: string, turnId: string) => {
    if (!kinds.has(turnId)) for (const turn of await ws.turns(sessionId)) kinds.set(turn.turnId, turn.kind);
    return kinds.get(turnId);
  };
  const others: string[] = [];
  for (const action of plan.actions) {
    if (!action.conflict || action.conflictStep) continue;
    const by = action.conflictTurn;
    const own =
      by !== undefined &&
      (caller === undefined || by.sessionId === caller) &&
      (await kindOf(by.sessionId, by.turnId)) === 'agent';
    if (!own) others.push(action.uri);
  }
  return others;
}

/** The terminal line that does the same undo as the person: from the workspace folder, by the turn's id. */
export function personUndoLine(ws: WorkspaceClient, target: AgentTarget, options: UndoOptions): string {
  const words = ['turnback', 'undo', target.turn.turnId, '--session', target.session.sessionId];
  for (const uri of options.uris ?? []) words.push('--files', uri.replace(/^workspace:\//, ''));
  for (const step of options.steps ?? []) words.push('--step', String(step));
  if (options.withChat) words.push('--with-chat');
  words.push(options.keepBoth ? '--keep-both' : '--force');
  return `cd ${shellQuote(ws.workspace.root)} && ${words.map(shellQuote).join(' ')}`;
}

/** Asks the person through the host (MCP elicitation): true only on their explicit yes. */
async function askThePerson(server: McpServer, message: string): Promise<boolean | 'cannot-ask'> {
  if (!server.server.getClientCapabilities()?.elicitation) return 'cannot-ask';
  try {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message,
      requestedSchema: {
        type: 'object',
        properties: { allow: { type: 'boolean', title: 'Allow', description: 'Let the agent overwrite these paths' } },
        required: ['allow'],
      },
    });
    return answer.action === 'accept' && answer.content?.allow === true;
  } catch {
    return 'cannot-ask';
  }
}

/** Refuses (NEEDS_PERSON) a force or keep-both over others' changes unless the person says yes. */
export async function requirePersonsYes(
  server: McpServer,
  ws: WorkspaceClient,
  target: AgentTarget,
  options: UndoOptions,
  others: string[],
): Promise<void> {
  if (others.length === 0) return;
  const paths = others.map((uri) => uri.replace(/^workspace:\//, '')).join(', ');
  const how = options.keepBoth ? 'keep both versions of' : 'overwrite';
  const asked = await askThePerson(
    server,
    `The agent asks to undo turn #${target.turn.number} (${target.turn.title}) and ${how} ${others.length} path(s) it did not change last: ${paths}. Allow it?`,
  );
  if (asked === true) return;
  const line = personUndoLine(ws, target, options);
  throw refused(
    `${others.length} path(s) were changed since by someone other than this agent (${paths}): ${asked === false ? 'the person said no' : 'only the person can decide'}. The person can run: ${line}`,
    'NEEDS_PERSON',
    { paths: others, command: line },
  );
}
