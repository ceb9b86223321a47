// The engine's events: a typed wrapper over EventEmitter; `on` answers an unsubscribe function.
import { EventEmitter } from 'node:events';
import type { EngineEventMap, EngineEventName } from './api.js';

export class Events {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  on<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.off(event, listener);
  }

  off<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): void {
    this.emitter.off(event, listener);
  }

  emit<K extends EngineEventName>(event: K, data: EngineEventMap[K]): void {
    // A listener's failure must not break the operation that emitted the event.
    for (const listener of this.emitter.listeners(event)) {
      try {
        (listener as (d: EngineEventMap[K]) => void)(data);
      } catch {
        /* ignored on purpose */
      }
    }
  }
}
