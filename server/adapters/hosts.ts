// Every agent host turnback records, by the name its hook route and `turnback init` use.
import { antigravityHost } from './antigravity/host.js';
import { claudeCodeHost } from './claude-code/host.js';
import { codexHost } from './codex/host.js';
import { copilotHost } from './copilot/host.js';
import { placeOfEvent } from './core/event-place.js';
import type { HostAdapter } from './core/host.js';
import { cursorHost } from './cursor/host.js';
import { geminiHost } from './gemini/host.js';
import { opencodeHost } from './opencode/host.js';
import { hostHookRoutes } from './core/route.js';
import type { ReceiverOptions } from './core/receiver.js';
import type { Route } from '../http/types.js';

export const HOSTS: readonly HostAdapter[] = [
  antigravityHost,
  claudeCodeHost,
  codexHost,
  copilotHost,
  cursorHost,
  geminiHost,
  opencodeHost,
];

export const hostNamed = (name: string): HostAdapter | undefined => HOSTS.find((host) => host.name === name);

/** `POST /api/agent/hook/:host` for every host, for one server. */
export function hookRoutes(options: ReceiverOptions = {}): Route[] {
  return hostHookRoutes(HOSTS, options);
}

/**
 * The session and folder of a raw hook event of `host` (for choosing the session's workspace),
 * read the way the host's adapter reads them (Cursor: conversation_id, workspace_roots[0]).
 */
export function placeOfHookEvent(host: string, raw: unknown): { sessionId: string; cwd: string } | null {
  const adapter = hostNamed(host);
  if (!adapter) return null;
  const other = adapter.eventOfHost?.(raw);
  const parsed = (other ? (hostNamed(other) ?? adapter) : adapter).parse(raw);
  // A file tool's edit in another project goes to that project's workspace, not its cwd's.
  return parsed.ok ? { sessionId: parsed.event.sessionId, cwd: placeOfEvent(parsed.event) } : null;
}
