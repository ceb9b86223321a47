// The route table of docs/api.md: every console and agent route, in one place.
import type { Route } from '../types.js';
import * as agent from './agent.js';
import * as commits from './commits.js';
import * as consoleRoutes from './console.js';

export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: '/api/health', handler: consoleRoutes.health },
  { method: 'GET', pattern: '/api/store', handler: consoleRoutes.storeStats },
  { method: 'POST', pattern: '/api/budget', handler: consoleRoutes.setBudget },
  { method: 'GET', pattern: '/api/sessions', handler: consoleRoutes.listSessions },
  { method: 'GET', pattern: '/api/sessions/:sessionId/turns', handler: consoleRoutes.listTurns },
  { method: 'GET', pattern: '/api/sessions/:sessionId/messages', handler: consoleRoutes.listMessages },
  { method: 'POST', pattern: '/api/sessions/:sessionId/rewind/preview', handler: consoleRoutes.previewRewind },
  { method: 'POST', pattern: '/api/sessions/:sessionId/rewind', handler: consoleRoutes.rewind },
  { method: 'DELETE', pattern: '/api/sessions/:sessionId', handler: consoleRoutes.deleteSession },
  { method: 'GET', pattern: '/api/turns/:turnId', handler: consoleRoutes.getManifest },
  { method: 'GET', pattern: '/api/turns/:turnId/diff', handler: consoleRoutes.getDiff },
  { method: 'GET', pattern: '/api/turns/:turnId/diffs', handler: consoleRoutes.getDiffs },
  { method: 'GET', pattern: '/api/turns/:turnId/commands/:execId', handler: consoleRoutes.getCommand },
  { method: 'GET', pattern: '/api/turns/:turnId/steps', handler: consoleRoutes.getSteps },
  { method: 'GET', pattern: '/api/compare', handler: consoleRoutes.compare },
  { method: 'GET', pattern: '/api/commits', handler: commits.listCommits },
  { method: 'GET', pattern: '/api/commits/:sha', handler: commits.getCommit },
  { method: 'GET', pattern: '/api/commits/:sha/diff', handler: commits.commitDiff },
  { method: 'GET', pattern: '/api/blame', handler: commits.blame },
  { method: 'GET', pattern: '/api/pins', handler: consoleRoutes.listPins },
  { method: 'POST', pattern: '/api/pins', handler: consoleRoutes.createPin },
  { method: 'DELETE', pattern: '/api/pins/:turnId', handler: consoleRoutes.deletePin },
  { method: 'GET', pattern: '/api/compare/diff', handler: consoleRoutes.compareDiff },
  { method: 'POST', pattern: '/api/turns/:turnId/preview', handler: consoleRoutes.previewTurn },
  { method: 'POST', pattern: '/api/turns/:turnId/rollback', handler: consoleRoutes.rollbackTurn },
  { method: 'POST', pattern: '/api/turns/:turnId/rollback-with-chat', handler: consoleRoutes.rollbackTurnWithChat },
  // The console's read of a path as it is now (a preview's "Now" side): fs/read's answer, under
  // the console token, and so also under /api/workspaces/:workspaceId/ (agent routes are not).
  { method: 'GET', pattern: '/api/file', handler: agent.fsRead },
  { method: 'POST', pattern: '/api/agent/input', handler: agent.input },
  { method: 'POST', pattern: '/api/agent/message', handler: agent.message },
  { method: 'POST', pattern: '/api/agent/turn-end', handler: agent.turnEnd },
  { method: 'POST', pattern: '/api/agent/exec', handler: agent.exec },
  { method: 'POST', pattern: '/api/agent/exec-end', handler: agent.execEnd },
  { method: 'POST', pattern: '/api/agent/before-mutate', handler: agent.beforeMutate },
  { method: 'POST', pattern: '/api/agent/fs/write', handler: agent.fsWrite },
  { method: 'POST', pattern: '/api/agent/fs/delete', handler: agent.fsDelete },
  { method: 'POST', pattern: '/api/agent/fs/rename', handler: agent.fsRename },
  { method: 'POST', pattern: '/api/agent/fs/move', handler: agent.fsMove },
  { method: 'POST', pattern: '/api/agent/fs/mkdir', handler: agent.fsMkdir },
  { method: 'GET', pattern: '/api/agent/fs/read', handler: agent.fsRead },
];

/** `GET /api/events` is a stream, not a JSON answer: the server handles it apart from the table. */
export const EVENTS_PATH = '/api/events';

/** The table with `extra` routes added; one that would shadow a route of the table is refused. */
export function withRoutes(extra: readonly Route[]): readonly Route[] {
  for (const route of extra) {
    if (ROUTES.some((own) => own.method === route.method && own.pattern === route.pattern)) {
      throw new Error(`route ${route.method} ${route.pattern} is already served`);
    }
  }
  return [...ROUTES, ...extra];
}
