// Which engine a request addresses (docs/api.md "Workspaces"). The HTTP layer asks an
// EngineSource: the service's workspace host, or one engine when a server embeds just one.
import { realpathSync } from 'node:fs';
import type { Engine } from '../engine/api.js';
import { EVENT_NAMES, type EventName, type Workspace } from '../protocol.js';
import { workspaceIdOf } from '../state-dir.js';
import { HttpError } from './errors.js';
import { engineNameOf } from './event-names.js';

/** What an agent request says about where it runs. */
export interface AgentPlace {
  /** The key a session is known by (`<host>:<id>` for a host's hook events). */
  sessionKey?: string;
  /** An absolute cwd the event came from. */
  cwd?: string;
}

export type EventListener = (name: EventName, data: unknown, workspaceId: string) => void;

export interface EngineSource {
  list(): Workspace[];
  /** The workspace holding `path` (registered when new); throws WORKSPACE_REFUSED. */
  register(path: string): Workspace;
  /** A console request's engine: `workspaceId`'s, else the default workspace's. */
  consoleEngine(workspaceId: string | undefined): Promise<{ engine: Engine; workspaceId: string }>;
  /** An agent request's engine: its session's workspace, else its cwd's, else the default. */
  agentEngine(place: AgentPlace): Promise<{ engine: Engine; workspaceId: string }>;
  /** A request to a workspace's engine failed: a failure that stops recording is reported there. */
  noteFailure?(workspaceId: string, error: unknown): void;
  /** A request to a workspace's engine succeeded. */
  noteSuccess?(workspaceId: string): void;
  onEvent(listener: EventListener): () => void;
}

/** Every event of one engine, each handed to `listener` with the workspace's id; answers the unsubscriber. */
export function forwardEvents(engine: Engine, workspaceId: string, listener: EventListener): () => void {
  const unsubscribers = EVENT_NAMES.map((name) =>
    engine.on(engineNameOf(name), (data) => listener(name, data, workspaceId)),
  );
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}

/** A server around one engine (tests, the demo, the library): its workspace is the only one, and the default. */
export function singleEngine(engine: Engine): EngineSource {
  let real = engine.workspace;
  try {
    real = realpathSync(engine.workspace);
  } catch {
    /* the engine checked it; keep its form */
  }
  const id = workspaceIdOf(real);
  const workspace = (): Workspace => ({
    id,
    root: real,
    name: real.split('/').pop() || real,
    recording: true,
    open: true,
    sessions: engine.listSessions().length,
    storeBytes: engine.storeStats().bytes,
    isDefault: true,
    watcher: engine.watcherStatus(),
  });
  const mine = async (workspaceId: string | undefined) => {
    if (workspaceId !== undefined && workspaceId !== id)
      throw new HttpError('WORKSPACE_NOT_FOUND', `no workspace ${JSON.stringify(workspaceId)}`);
    return { engine, workspaceId: id };
  };
  return {
    list: () => [workspace()],
    register: () => {
      throw new HttpError('WORKSPACE_REFUSED', 'this server records one workspace only');
    },
    consoleEngine: mine,
    agentEngine: () => mine(undefined),
    onEvent: (listener) => forwardEvents(engine, id, listener),
  };
}
