// Subscribes to /api/events and turns each event into query invalidations. Bursts (an agent
// writing many files) are batched so each view refetches at most once per tick.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { EVENT_NAMES, type EventMap } from '../../../server/protocol';
import { keys } from '../../api/keys';
import { forgetSessionKey, HandshakeError, sessionKey } from '../../api/handshake';
import { useUiStore } from '../../store';
import type { Workspace } from '../../../server/protocol';
import { keysForEvent, scopesOfEvent } from './invalidation';

const BATCH_MS = 250;
/** After the stream is lost: how long before checking the service again and reopening it. */
const REOPEN_MS = 2000;

export function useLiveEvents(): void {
  const client = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      useUiStore.getState().setLiveStatus('polling');
      return;
    }
    // An EventSource cannot send headers: the event stream (only it) takes the session key in its
    // query, and it reconnects only through a new handshake (the browser's own retry would send
    // the old key to whoever answers on this port).
    let source: EventSource | null = null;
    let stopped = false;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    const pending = new Map<string, QueryKey>();
    let timer: ReturnType<typeof setTimeout> | null = null;

    const flush = () => {
      timer = null;
      for (const key of pending.values()) void client.invalidateQueries({ queryKey: key });
      pending.clear();
    };
    const schedule = (keys: QueryKey[]) => {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, BATCH_MS);
    };

    const onEvent = (name: (typeof EVENT_NAMES)[number]) => (event: MessageEvent<string>) => {
      let data: EventMap[typeof name];
      try {
        data = JSON.parse(event.data) as EventMap[typeof name];
      } catch {
        return;
      }
      const { workspaceId } = data as { workspaceId?: string };
      const ui = useUiStore.getState();
      const defaultId = client
        .getQueryData<Workspace[]>(keys.workspaces.all)
        ?.find((workspace) => workspace.isDefault)?.id;
      const scopes = scopesOfEvent(workspaceId, ui.workspaceId, defaultId);
      for (const scope of scopes) schedule(keysForEvent(name, data, scope));
      if (name === 'session-deleted' && scopes.includes(ui.workspaceId) && ui.sessionId === data.sessionId) {
        useUiStore.getState().selectSession(null, 'replace');
      }
    };

    let openedBefore = false;
    const later = () => {
      if (!stopped) reopen = setTimeout(() => void open(), REOPEN_MS);
    };
    const open = async (): Promise<void> => {
      reopen = null;
      let key: string;
      try {
        key = await sessionKey();
      } catch (error) {
        // Not our service: the tab stops (App says so). Unreachable: ask again later.
        if (error instanceof HandshakeError && error.kind !== 'network') return;
        useUiStore.getState().setLiveStatus('connecting');
        void client.invalidateQueries({ queryKey: keys.health.all });
        return later();
      }
      if (stopped) return;
      const stream = new EventSource(`/api/events?session=${encodeURIComponent(key)}`);
      source = stream;
      for (const name of EVENT_NAMES) stream.addEventListener(name, onEvent(name) as EventListener);
      stream.onopen = () => {
        useUiStore.getState().setLiveStatus('live');
        // Whatever happened while disconnected is unknown: after a reconnect, refresh everything once.
        if (openedBefore) void client.invalidateQueries();
        openedBefore = true;
      };
      stream.onerror = () => {
        // CLOSED: the browser gave up (lists poll meanwhile); either way this tab reopens it itself.
        useUiStore.getState().setLiveStatus(stream.readyState === EventSource.CLOSED ? 'polling' : 'connecting');
        stream.close();
        source = null;
        forgetSessionKey();
        // Is the server gone, or only the stream? Ask at once, so an outage shows without delay.
        void client.invalidateQueries({ queryKey: keys.health.all });
        later();
      };
    };
    void open();

    return () => {
      stopped = true;
      source?.close();
      if (reopen) clearTimeout(reopen);
      if (timer) clearTimeout(timer);
    };
  }, [client]);
}
