// The hook route Claude Code posts to, `POST /api/agent/hook/claude-code`, is the core's
// `POST /api/agent/hook/:host` (core/route.ts), which serves every host: the CLI hands these
// routes to the HTTP server, which serves them next to its own table without knowing any adapter.
import type { Route } from '../../../http/types.js';
import type { ReceiverOptions } from '../../core/receiver.js';
import { hookRoutes } from '../../hosts.js';

/** The hook routes of one server (every host's, Claude Code's among them). */
export function claudeCodeRoutes(options: ReceiverOptions = {}): Route[] {
  return hookRoutes(options);
}
