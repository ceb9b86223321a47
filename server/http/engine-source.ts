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
  /** False for the fs routes: they act only inside a workspace already registered. */
  registers?: boolean;
}

/** A request's engine; `release` once the request is done with it (an engine in use is never closed). */
export interface EngineLease {
  engine: Engine;
  workspaceId: string;
  release?: () => void;
}

/** What forgetting a workspace did. */
export interface Forgotten {
  workspace: Workspace;
  storeDeleted: boolean;
}

export type EventListener = (name: EventName, data: unknown, workspaceId: string) => void;

export interface EngineSource {
  list(): Workspace[];
  /** The workspace holding `path` (registered when new); throws WORKSPACE_REFUSED (`allow`: the person's yes to a system or dot-folder). */
  register(path: string, options?: { allow?: boolean }): Workspace;
  /** Closes a workspace's engine and takes it out of the registry, its store deleted only when asked. */
  forget?(workspaceId: string, options?: { deleteStore?: boolean }): Promise<Forgotten>;
  /** A console request's engine: `workspaceId`'s, else the default workspace's. */
  consoleEngine(workspaceId: string | undefined): Promise<EngineLease>;
  /** An agent request's engine: its session's workspace, else its cwd's, else the default. */
  agentEngine(place: AgentPlace): Promise<EngineLease>;
  /** The engines of the other workspaces a session's recent events went to, each leased (release each). */
  sessionEngines?(sessionKey: string, exceptWorkspaceId: string): Promise<EngineLease[]>;
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
    budget: engine.storeStats().budget,
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
