// Subscribes to /api/events and turns each event into query invalidations. Bursts (an agent
// writing many files) are batched so each view refetches at most once per tick.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { EVENT_NAMES, type EventMap } from '../../../server/protocol';
import { keys } from '../../api/keys';
import { consoleToken } from '../../api/token';
import { useUiStore } from '../../store';
import type { Workspace } from '../../../server/protocol';
import { keysForEvent, scopesOfEvent } from './invalidation';

const BATCH_MS = 250;

export function useLiveEvents(): void {
  const client = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      useUiStore.getState().setLiveStatus('polling');
      return;
    }
    // An EventSource cannot send headers: the event stream (only it) takes the token in its query.
    const source = new EventSource(`/api/events?token=${encodeURIComponent(consoleToken() ?? '')}`);
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

    const listeners = EVENT_NAMES.map((name) => {
      const listener = (event: MessageEvent<string>) => {
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
      source.addEventListener(name, listener as EventListener);
      return [name, listener] as const;
    });

    let openedBefore = false;
    source.onopen = () => {
      useUiStore.getState().setLiveStatus('live');
      // Whatever happened while disconnected is unknown: after a reconnect, refresh everything once.
      if (openedBefore) void client.invalidateQueries();
      openedBefore = true;
    };
    source.onerror = () => {
      // CONNECTING: the browser retries by itself; CLOSED: it gave up, so lists poll.
      useUiStore.getState().setLiveStatus(source.readyState === EventSource.CLOSED ? 'polling' : 'connecting');
      // Is the server gone, or only the stream? Ask at once, so an outage shows without delay.
      void client.invalidateQueries({ queryKey: keys.health.all });
    };

    return () => {
      for (const [name, listener] of listeners) source.removeEventListener(name, listener as EventListener);
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
}
