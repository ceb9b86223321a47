// The service's side of the hooks' spool (spool.ts): takes the spooled events in, in order, through
// its own hook route, before any live hook event is handled, so a session's events keep their
// order whichever way each came. An event that reached the service is not taken in twice (its
// delivery id).
import { statSync } from 'node:fs';
import { postAgent, type AgentTarget } from '../adapters/claude-code/hook/client.js';
import { HOOK_ROUTE_PATTERN } from '../adapters/core/hook-path.js';
import type { Route } from '../http/types.js';
import type { AgentHookResponse } from '../protocol.js';
import { takeSpool } from './spool.js';

/** Delivery ids remembered: far more than a burst of hooks sends. */
const KEEP_IDS = 20_000;
/** One spooled event's bound: a stuck store must not hold up the intake for good. */
const EVENT_BOUND_MS = 120_000;

export class SpoolIntake {
  private readonly delivered = new Set<string>();
  private draining: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    /** The service's own address and agent token, once it listens. */
    private readonly target: () => AgentTarget | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Remembers a delivery; true when it came before (a spooled copy of it, or a delivery twice). */
  note(delivery: string): boolean {
    if (this.delivered.has(delivery)) return true;
    this.delivered.add(delivery);
    if (this.delivered.size > KEEP_IDS) this.delivered.delete(this.delivered.values().next().value as string);
    return false;
  }

  /** Takes in what the spool holds; `always`: also the spools a stopped service left part-way (at start). */
  drain(always = false): Promise<void> {
    if (this.draining) return this.draining;
    const target = this.target();
    if (!target) return Promise.resolve();
    if (!always && statSync(this.file, { throwIfNoEntry: false }) === undefined) return Promise.resolve();
    this.draining = this.takeIn(target).finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async takeIn(target: AgentTarget): Promise<void> {
    // Events spooled while one round is taken in make the next round.
    for (let round = 0; round < 10; round++) {
      const taken = takeSpool(this.file);
      if (taken.damaged > 0) this.log(`spool: ${taken.damaged} damaged line(s) left out`);
      for (const spooled of taken.events) {
        if (this.note(spooled.delivery)) continue;
        const route = `/api/agent/hook/${spooled.host}?spooled=1`;
        try {
          const answer = await postAgent(target, route, spooled.event, AbortSignal.timeout(EVENT_BOUND_MS));
          if (answer.status < 200 || answer.status >= 300)
            this.log(
              `spool: a ${spooled.host} event of ${spooled.at} answered ${answer.status}: ${answer.body.slice(0, 300)}`,
            );
        } catch (error) {
          this.log(`spool: a ${spooled.host} event of ${spooled.at} was not taken in: ${(error as Error).message}`);
        }
      }
      taken.done();
      if (statSync(this.file, { throwIfNoEntry: false }) === undefined) return;
    }
  }
}

/** The hook route, taking the spool in before each live event (and a live event delivered twice only once). */
export function spoolOrdered(routes: Route[], intake: SpoolIntake): Route[] {
  return routes.map((route) =>
    route.pattern !== HOOK_ROUTE_PATTERN
      ? route
      : {
          ...route,
          handler: async (request, deps) => {
            if (!request.query.has('spooled')) {
              const delivery = request.query.get('delivery');
              if (delivery && intake.note(delivery)) {
                const answer: AgentHookResponse = { ok: true, outcome: 'ignored', ignored: 'delivered already' };
                return { body: answer };
              }
              await intake.drain();
            }
            return route.handler(request, deps);
          },
        },
  );
}
