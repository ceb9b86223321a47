// Every agent host turnback records, by the name its hook route and `turnback init` use.
import { claudeCodeHost } from './claude-code/host.js';
import type { HostAdapter } from './core/host.js';
import { geminiHost } from './gemini/host.js';
import { opencodeHost } from './opencode/host.js';
import { hostHookRoutes } from './core/route.js';
import type { ReceiverOptions } from './core/receiver.js';
import type { Route } from '../http/types.js';

export const HOSTS: readonly HostAdapter[] = [
  claudeCodeHost,
  geminiHost,
  opencodeHost,
];

export const hostNamed = (name: string): HostAdapter | undefined => HOSTS.find((host) => host.name === name);

/** `POST /api/agent/hook/:host` for every host, for one server. */
export function hookRoutes(options: ReceiverOptions = {}): Route[] {
  return hostHookRoutes(HOSTS, options);
}
