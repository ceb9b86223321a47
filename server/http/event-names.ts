// The SSE names of docs/api.md "Events" and the engine's names for them.
import type { EngineEventName, MemoryEventName } from '../engine/api.js';
import type { EventName } from '../protocol.js';

/** The memory store's events, each of the engine's MemoryEventName once (the compiler checks). */
const MEMORY_EVENTS: Record<MemoryEventName, true> = { 'messages-deleted': true, 'messages-restored': true };
const isMemoryEvent = (name: EventName): name is MemoryEventName => Object.hasOwn(MEMORY_EVENTS, name);

/** The engine's name of an SSE event: the memory store's events carry `memory:`. */
export function engineNameOf(name: EventName): EngineEventName {
  return isMemoryEvent(name) ? `memory:${name}` : name;
}
