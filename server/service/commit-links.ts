// Keeps each active workspace's commits linked to their turns: a link runs at each turn's start
// and end, and when the repository's HEAD reflog moves (a person's commit between turns).
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { EngineSource } from '../http/engine-source.js';
import { gitDirOf } from '../git/git.js';
import { linkCommits } from '../provenance/link-commits.js';

const SETTLE_MS = 300;

interface Slot {
  running: Promise<void>;
  timer?: NodeJS.Timeout;
  watchers: FSWatcher[];
}

/** Starts linking; answers the stop. `complain` hears a link that failed (once per reason). */
export function keepCommitsLinked(source: EngineSource, complain: (line: string) => void): () => void {
  const slots = new Map<string, Slot>();
  const told = new Set<string>();
  let stopped = false;

  const link = (workspaceId: string) => {
    const slot = slots.get(workspaceId);
    if (!slot || stopped) return;
    slot.running = slot.running
      .then(async () => {
        if (stopped) return;
        const lease = await source.consoleEngine(workspaceId);
        try {
          await linkCommits(lease.engine);
        } finally {
          lease.release?.();
        }
      })
      .catch((error: unknown) => {
        const line = `commits of workspace ${workspaceId} not linked to their turns: ${(error as Error).message}`;
        if (!told.has(line)) complain(line);
        told.add(line);
      });
  };
  const soon = (workspaceId: string) => {
    const slot = slots.get(workspaceId);
    if (!slot || stopped) return;
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => link(workspaceId), SETTLE_MS);
    slot.timer.unref();
  };
  const start = async (workspaceId: string) => {
    const slot: Slot = { running: Promise.resolve(), watchers: [] };
    slots.set(workspaceId, slot);
    const lease = await source.consoleEngine(workspaceId);
    const root = lease.engine.workspace;
    lease.release?.();
    const gitDir = await gitDirOf(root);
    if (!gitDir || stopped) return;
    for (const dir of [gitDir, path.join(gitDir, 'logs')]) {
      try {
        const watcher = watch(dir, { persistent: false }, (_type, name) => {
          if (name === 'HEAD' || name === 'logs') soon(workspaceId);
        });
        watcher.on('error', () => watcher.close());
        slot.watchers.push(watcher);
      } catch {
        /* no logs yet: the turn events still link */
      }
    }
  };

  const unsubscribe = source.onEvent((name, _data, workspaceId) => {
    if (name !== 'turn-begun' && name !== 'turn-committed') return;
    if (!slots.has(workspaceId)) {
      void start(workspaceId)
        .catch(() => undefined)
        .then(() => link(workspaceId));
      return;
    }
    link(workspaceId);
  });

  return () => {
    stopped = true;
    unsubscribe();
    for (const slot of slots.values()) {
      clearTimeout(slot.timer);
      for (const watcher of slot.watchers) watcher.close();
    }
  };
}
