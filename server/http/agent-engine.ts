// What a request holding the agent token reaches: the engine, with every session it opens
// marked as the agent's (docs/api.md "Retention"). One place, so every agent route (and the
// host hook routes a caller adds) is covered without each route having to say so.
import type { Engine } from '../engine/api.js';

export function agentEngine(engine: Engine): Engine {
  return new Proxy(engine, {
    get(target, name) {
      if (name === 'input') return ((req) => target.input({ ...req, origin: 'agent' })) satisfies Engine['input'];
      if (name === 'message') return ((req) => target.message({ ...req, origin: 'agent' })) satisfies Engine['message'];
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
