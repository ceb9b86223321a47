// GET /api/events: the engine's events as Server-Sent Events (docs/api.md "Events"), so the console
// updates while an agent works.
import type { ServerResponse } from 'node:http';
import type { EventName } from '../protocol.js';
import type { EngineSource } from './engine-source.js';

export const PING_INTERVAL_MS = 15_000;

export function formatEvent(name: EventName, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface EventStream {
  close(): void;
}

/**
 * Starts streaming on `response` (headers not yet sent): every workspace's events, or only
 * `workspaceId`'s, each data object with its `workspaceId`. `onClosed` runs once it ends, from
 * either side.
 */
export function openEventStream(
  response: ServerResponse,
  source: Pick<EngineSource, 'onEvent'>,
  workspaceId: string | undefined,
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

  const unsubscribe = source.onEvent((name, data, from) => {
    if (workspaceId === undefined || from === workspaceId)
      response.write(formatEvent(name, { ...(data as object), workspaceId: from }));
  });
  const ping = setInterval(() => response.write(': ping\n\n'), pingIntervalMs);
  ping.unref();

  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    unsubscribe();
    if (!response.writableEnded) response.end();
    onClosed();
  };
  response.on('close', close);
  response.on('error', close);
  return { close };
}
