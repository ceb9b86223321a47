// The one server route of every agent host, `POST /api/agent/hook/:host` (docs/api.md): the raw
// event the host's hook got, in; the engine calls it maps to, done. Each host has its own
// receiver, which keeps what links one of its events to the next.
import { BadRequestError, EngineError } from '../../engine/errors.js';
import type { Route } from '../../http/types.js';
import type { AgentHookResponse } from '../../protocol.js';
import type { HostAdapter } from './host.js';
import { HostReceiver, type ReceiverOptions } from './receiver.js';

import { HOOK_ROUTE_PATTERN } from './hook-path.js';

/** The paragraph for the agent, and last (bin/turnback-hook prints what follows its key) the host's stdout for it. */
function agentNoticeFields(host: HostAdapter, notice: string | undefined): Partial<AgentHookResponse> {
  if (notice === undefined || !host.promptContext) return {};
  const hookOutput = host.promptContext(notice);
  return hookOutput === null ? { agentNotice: notice } : { agentNotice: notice, hookOutput };
}

/** The hook route of one server, for `hosts`. */
export function hostHookRoutes(hosts: readonly HostAdapter[], options: ReceiverOptions = {}): Route[] {
  const receivers = new Map(hosts.map((host) => [host.name, new HostReceiver(host, options)]));
  return [
    {
      method: 'POST',
      pattern: HOOK_ROUTE_PATTERN,
      handler: async ({ params, body }, { engine, sessionEngines }) => {
        let receiver = receivers.get(params.host);
        if (!receiver)
          throw new EngineError('NOT_FOUND', `no agent host ${JSON.stringify(params.host)}`, {
            hosts: [...receivers.keys()],
          });
        // Another host's event on this host's route (Cursor runs Claude Code's hooks): that host's receiver takes it.
        const other = receiver.host.eventOfHost?.(body);
        if (other) receiver = receivers.get(other) ?? receiver;
        const result = await receiver.receive(body, engine, sessionEngines);
        if (!result.ok) throw new BadRequestError(`malformed hook event: ${result.malformed}`);
        const answer: AgentHookResponse =
          result.outcome === 'forwarded'
            ? {
                ok: true,
                outcome: 'forwarded',
                calls: result.calls,
                ...(result.tell ? { systemMessage: result.tell } : {}),
                ...agentNoticeFields(receiver.host, result.agentNotice),
              }
            : result.outcome === 'outside-workspace' && result.tell
              ? // The first time for the session: told as what cannot be recorded is (the hooks show it, hook.log keeps it).
                { ok: true, outcome: 'not-recorded', ignored: result.reason, systemMessage: result.tell }
              : { ok: true, outcome: result.outcome, ignored: result.reason };
        return { body: answer };
      },
    },
  ];
}
