// GET /api/events: the engine's events as Server-Sent Events (API.md "Events"), so the console
// updates while an agent works.
import type { ServerResponse } from 'node:http';
import type { Engine, EngineEventName } from '../engine/api.js';
import type { EventName } from '../protocol.js';

/** Engine event → SSE event name: the two memory events lose their `memory:` prefix. */
export const SSE_NAME_OF: Record<EngineEventName, EventName> = {
  'turn-begun': 'turn-begun',
  captured: 'captured',
  'turn-committed': 'turn-committed',
  'rollback-done': 'rollback-done',
  'memory:messages-deleted': 'messages-deleted',
  'memory:messages-restored': 'messages-restored',
  'session-deleted': 'session-deleted',
};

export const PING_INTERVAL_MS = 15_000;

export function formatEvent(name: EventName, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface EventStream {
  close(): void;
}

/** Starts streaming on `response` (headers not yet sent); `onClosed` runs once it ends, from either side. */
export function openEventStream(
  response: ServerResponse,
  engine: Engine,
  headers: Record<string, string>,
  onClosed: () => void,
  pingIntervalMs = PING_INTERVAL_MS,
): EventStream {
  response.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  response.write('retry: 2000\n\n');
  response.socket?.setNoDelay(true);

  const unsubscribers = (Object.keys(SSE_NAME_OF) as EngineEventName[]).map((engineName) =>
    engine.on(engineName, (data) => {
      response.write(formatEvent(SSE_NAME_OF[engineName], data));
    }),
  );
  const ping = setInterval(() => response.write(': ping\n\n'), pingIntervalMs);
  ping.unref();

  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    for (const unsubscribe of unsubscribers) unsubscribe();
    if (!response.writableEnded) response.end();
    onClosed();
  };
  response.on('close', close);
  response.on('error', close);
  return { close };
}
