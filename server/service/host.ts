// The multi-workspace host of a person's service (docs/api.md "Workspaces"): the registered
// workspaces, one engine each, opened on first use and closed when idle (no active turn), so
// twenty registered workspaces cost little, and at most MAX_OPEN_ENGINES are open at once (the
// least recently used idle one closes first), so any number of cwds keeps fds and memory bounded.
// One workspace's slow or failing store never holds up another's: each opens on its own promise,
// and /api/health asks none of them.
import { realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../engine/api.js';
import type { OpenEngineOptions } from '../engine/index.js';
import {
  forwardEvents,
  type AgentPlace,
  type EngineLease,
  type EngineSource,
  type EventListener,
  type Forgotten,
} from '../http/engine-source.js';
import { HttpError } from '../http/errors.js';
import { stopsRecording } from '../http/not-recorded.js';
import type { Workspace } from '../protocol.js';
import { statePathIn, turnbackStateDir } from '../state-dir.js';
import { IndexBuilds } from './index-builds.js';
import { WorkspaceRegistry, type RegisteredWorkspace } from './registry.js';
import { SessionMap } from './session-map.js';
import { storedSessionCount } from './stored-sessions.js';
import { autoWorkspaceRootOf, workspaceRootOf } from './workspace-root.js';

export const IDLE_CLOSE_MS = 10 * 60_000;
/** Engines open at once; past it the least recently used idle one is closed (each holds a store, a watcher, fds). */
export const MAX_OPEN_ENGINES = 16;
/** Workspaces agent events may register by themselves per window; more need the person (`turnback init`, the console). */
export const AGENT_REGISTRATIONS = { max: 20, windowMs: 60 * 60_000 };

export interface HostOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the registry, the session map and new workspaces' stores live; default the per-user state dir. */
  stateDir?: string;
  /** What every workspace's engine is opened with (scopes, limits, retention, excludes, log). */
  engineOptions: Omit<OpenEngineOptions, 'workspace' | 'dataDir'>;
  open: (options: OpenEngineOptions) => Promise<Engine>;
  idleMs?: number;
  log?: (line: string) => void;
  now?: () => number;
  /** Build each workspace's index in the background once registered or opened (the service does; index-builds.ts). */
  indexInBackground?: boolean;
  maxOpenEngines?: number;
  agentRegistrations?: { max: number; windowMs: number };
}

interface Slot {
  opening?: Promise<Engine>;
  /** An engine closing: the next open of the same store waits for it. */
  closing?: Promise<void>;
  engine?: Engine;
  unsubscribe?: () => void;
  lastUse: number;
  /** Its engine's latest count; undefined until the engine opened or the store was read. */
  sessions?: number;
  /** Requests holding the engine now: it is not closed under them. */
  leases: number;
}

export class WorkspaceHost implements EngineSource {
  private readonly env: NodeJS.ProcessEnv;
  private readonly stateDir: string;
  private readonly registry: WorkspaceRegistry;
  private readonly sessions: SessionMap;
  private readonly slots = new Map<string, Slot>();
  private readonly problems = new Map<string, string>();
  private readonly openErrors = new Map<string, unknown>();
  private readonly dataDirs = new Map<string, string>();
  private readonly listeners = new Set<EventListener>();
  private readonly sweep: NodeJS.Timeout;
  private readonly now: () => number;
  private defaultId: string | undefined;
  private readonly builds: IndexBuilds | undefined;
  /** When agent events registered workspaces, within the current window. */
  private agentRegisteredAt: number[] = [];

  constructor(private readonly options: HostOptions) {
    this.env = options.env ?? process.env;
    this.now = options.now ?? Date.now;
    this.stateDir = options.stateDir ?? turnbackStateDir(this.env);
    this.registry = new WorkspaceRegistry(this.env, this.now, statePathIn(this.stateDir, 'workspaces'));
    this.sessions = new SessionMap(this.env, statePathIn(this.stateDir, 'sessions'));
    const idleMs = options.idleMs ?? IDLE_CLOSE_MS;
    this.sweep = setInterval(() => void this.closeIdle(idleMs), Math.min(60_000, Math.max(idleMs / 2, 50)));
    this.sweep.unref();
    if (options.indexInBackground)
      this.builds = new IndexBuilds({
        engine: (id) => this.engine(id),
        note: (id, status) => this.registry.noteIndex(id, status),
        log: options.log,
      });
  }

  /** Queues the index build of every registered workspace whose latest build did not end whole (a restart resumes them). */
  resumeIndexBuilds(): void {
    if (!this.builds) return;
    for (const entry of this.registry.list()) {
      if (entry.index?.state === 'whole' || !isDirectory(entry.root)) continue;
      void this.builds.request(entry.id);
    }
  }

  /** Resolves once the queued index builds have ended (tests). */
  indexBuildsSettled(): Promise<void> {
    return this.builds?.settled() ?? Promise.resolve();
  }

  /** `serve --workspace`: `root` (a real path, already checked) is registered and made the default, its store in `dataDir` if given. */
  setDefault(root: string, dataDir?: string): RegisteredWorkspace {
    const entry = this.registry.register(root);
    if (dataDir !== undefined) this.dataDirs.set(entry.id, dataDir);
    this.defaultId = entry.id;
    return entry;
  }

  list(): Workspace[] {
    return this.registry.list().map((entry) => this.describe(entry));
  }

  describe(entry: RegisteredWorkspace): Workspace {
    const slot = this.slots.get(entry.id);
    const reason = this.problems.get(entry.id);
    if (slot?.engine) slot.sessions = slot.engine.listSessions().length;
    // Never opened since the start: counted once from the store (only its engine changes it, and then recounts).
    else if (slot?.sessions === undefined)
      this.slotOf(entry.id).sessions = storedSessionCount(this.dataDirOf(entry.id));
    const index = this.builds ? (slot?.engine?.indexStatus() ?? entry.index) : undefined;
    const watcher = slot?.engine?.watcherStatus();
    const budget = slot?.engine?.storeStats().budget;
    return {
      id: entry.id,
      root: entry.root,
      name: path.basename(entry.root) || entry.root,
      recording: reason === undefined,
      ...(reason === undefined ? {} : { reason }),
      open: slot?.engine !== undefined,
      sessions: this.slots.get(entry.id)?.sessions ?? 0,
      storeBytes: storeBytes(this.dataDirOf(entry.id)),
      isDefault: entry.id === this.defaultId,
      ...(index ? { index } : {}),
      ...(watcher ? { watcher } : {}),
      ...(budget ? { budget } : {}),
    };
  }

  /** The workspace holding `target`: a registered one (the deepest), else its git top level, registered. */
  register(target: string, options: { allow?: boolean } = {}): Workspace {
    const entry = this.registeredHolding(target) ?? this.registry.register(workspaceRootOf(target, this.env, options));
    // Registered (by `init`, or the console): its index is built now, before the agent's first command needs it.
    if (this.builds && entry.index?.state !== 'whole') void this.builds.request(entry.id);
    return this.describe(entry);
  }

  /**
   * `turnback forget` / `DELETE /api/workspaces/:id`: its engine closed, out of the registry and
   * the session map; its store kept unless `deleteStore`. Refused while a turn is active in it.
   */
  async forget(id: string, options: { deleteStore?: boolean } = {}): Promise<Forgotten> {
    const entry = this.registry.get(id);
    if (!entry) throw new HttpError('WORKSPACE_NOT_FOUND', `no workspace ${JSON.stringify(id)}`);
    if (id === this.defaultId)
      throw new HttpError(
        'CONFLICT',
        `${entry.root} is this service's own workspace (serve --workspace): stop it instead`,
      );
    // A closed engine may still hold a turn left active by a crash: it is opened to see.
    const engine = await this.engine(id).catch(() => undefined);
    if (engine?.listSessions().some((session) => session.activeTurnId !== null))
      throw new HttpError('TURN_ACTIVE', `a turn is active in ${entry.root}: forget it once the turn has ended`, {
        workspaceId: id,
      });
    const workspace = this.describe(entry);
    const slot = this.slots.get(id);
    if (slot) await this.closeSlot(id, slot);
    this.slots.delete(id);
    this.registry.remove(id);
    this.sessions.forgetWorkspace(id);
    this.problems.delete(id);
    this.openErrors.delete(id);
    let storeDeleted = false;
    // Only a store in the state dir, named by the id: a `serve --data` folder is the person's own.
    if (options.deleteStore && !this.dataDirs.has(id)) {
      rmSync(this.dataDirOf(id), { recursive: true, force: true });
      storeDeleted = true;
    }
    this.options.log?.(`forgot workspace ${entry.root}${storeDeleted ? ', its store deleted' : ''}`);
    return { workspace: { ...workspace, open: false }, storeDeleted };
  }

  dataDirOf(id: string): string {
    return this.dataDirs.get(id) ?? path.join(this.stateDir, id);
  }

  /** The engine of a registered workspace, opened when it is not. */
  engine(id: string): Promise<Engine> {
    const entry = this.registry.get(id);
    if (!entry) return Promise.reject(new HttpError('WORKSPACE_NOT_FOUND', `no workspace ${JSON.stringify(id)}`));
    const slot = this.slotOf(id);
    slot.lastUse = this.now();
    if (slot.engine) return Promise.resolve(slot.engine);
    slot.opening ??= Promise.resolve(slot.closing)
      .then(() => this.makeRoom(id))
      .then(() => this.openSlot(entry, slot));
    return slot.opening;
  }

  private slotOf(id: string): Slot {
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { lastUse: this.now(), leases: 0 };
      this.slots.set(id, slot);
    }
    return slot;
  }

  /** `id`'s engine for one request: it stays open until released. */
  private async lease(id: string): Promise<EngineLease> {
    const slot = this.slotOf(id);
    slot.leases += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slot.leases -= 1;
      slot.lastUse = this.now();
    };
    try {
      return { engine: await this.engine(id), workspaceId: id, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Before `id` opens: the least recently used idle engines close until one more fits under the cap. */
  private async makeRoom(id: string): Promise<void> {
    const cap = this.options.maxOpenEngines ?? MAX_OPEN_ENGINES;
    const open = [...this.slots].filter(([other, slot]) => other !== id && (slot.engine || slot.opening));
    const closable = open
      .filter(([other, slot]) => slot.engine && this.mayClose(other, slot))
      .sort(([, a], [, b]) => a.lastUse - b.lastUse);
    const closing: Promise<void>[] = [];
    for (let count = open.length; count >= cap && closable.length > 0; count--) {
      const [other, slot] = closable.shift()!;
      closing.push(this.closeSlot(other, slot));
    }
    await Promise.all(closing);
  }

  /** An engine no request holds, not the default one, with no index build running and no active turn. */
  private mayClose(id: string, slot: Slot): boolean {
    if (!slot.engine || slot.leases > 0 || id === this.defaultId || this.builds?.running(id)) return false;
    return !slot.engine.listSessions().some((session) => session.activeTurnId !== null);
  }

  private async openSlot(entry: RegisteredWorkspace, slot: Slot): Promise<Engine> {
    try {
      const engine = await this.options.open({
        ...this.options.engineOptions,
        workspace: entry.root,
        dataDir: this.dataDirOf(entry.id),
      });
      slot.engine = engine;
      slot.unsubscribe = forwardEvents(engine, entry.id, (name, data, from) => {
        for (const listener of this.listeners) listener(name, data, from);
      });
      slot.sessions = engine.listSessions().length;
      this.problems.delete(entry.id);
      if (this.builds && engine.indexStatus().state !== 'whole') void this.builds.request(entry.id);
      return engine;
    } catch (error) {
      const reason = (error as Error).message ?? String(error);
      // Every event retries the open: the log says each new reason once, not each retry.
      if (this.problems.get(entry.id) !== reason)
        this.options.log?.(`workspace ${entry.root} is not recording: ${reason}`);
      this.problems.set(entry.id, reason);
      this.openErrors.set(entry.id, error);
      throw new HttpError('WORKSPACE_NOT_RECORDING', `workspace ${entry.root} is not recording: ${reason}`, {
        workspaceId: entry.id,
      });
    } finally {
      slot.opening = undefined;
    }
  }

  private defaultWorkspaceId(): string {
    if (this.defaultId !== undefined) return this.defaultId;
    const all = this.registry.list();
    if (all.length === 1) return all[0].id;
    throw new HttpError(
      'WORKSPACE_REQUIRED',
      'this service records several workspaces: address one with /api/workspaces/<workspaceId>/…',
    );
  }

  async consoleEngine(workspaceId: string | undefined): Promise<EngineLease> {
    return this.lease(workspaceId ?? this.defaultWorkspaceId());
  }

  async agentEngine(place: AgentPlace): Promise<EngineLease> {
    const id = this.workspaceOfAgent(place);
    if (place.sessionKey !== undefined) this.sessions.set(place.sessionKey, id);
    return this.lease(id);
  }

  /** The engines of the other workspaces `sessionKey`'s recent events went to (a session that moved), each leased; one that cannot open is left out. */
  async sessionEngines(sessionKey: string, except: string): Promise<EngineLease[]> {
    const leases: EngineLease[] = [];
    for (const id of this.sessions.workspacesOf(sessionKey)) {
      if (id === except || !this.registry.get(id)) continue;
      const lease = await this.lease(id).catch(() => undefined);
      if (lease) leases.push(lease);
    }
    return leases;
  }

  /** An event's cwd's workspace; without a cwd, its session's latest one, else the default. */
  private workspaceOfAgent(place: AgentPlace): string {
    // The fs routes act only inside a registered workspace, whatever the session.
    if (place.registers === false && place.cwd !== undefined && !this.registeredHolding(place.cwd))
      throw new HttpError(
        'WORKSPACE_NOT_FOUND',
        `${place.cwd} is in no registered workspace: the agent's files are written only inside one`,
        { path: place.cwd },
      );
    // Events go where the files are: the workspace of the event's cwd, not only of the session's first event.
    if (place.cwd !== undefined)
      return (this.registeredHolding(place.cwd) ?? this.registerForAgent(place.cwd, place.sessionKey)).id;
    const known = place.sessionKey === undefined ? undefined : this.sessions.workspaceOf(place.sessionKey);
    if (known !== undefined && this.registry.get(known)) return known;
    return this.defaultWorkspaceId();
  }

  /** An agent event's own registration: only a project (autoWorkspaceRootOf), and only so many per window. */
  private registerForAgent(cwd: string, sessionKey: string | undefined): RegisteredWorkspace {
    const host = sessionKey?.split(':')[0];
    const root = autoWorkspaceRootOf(cwd, this.env, host === undefined || host === 'agent' ? undefined : host);
    const limit = this.options.agentRegistrations ?? AGENT_REGISTRATIONS;
    const since = this.now() - limit.windowMs;
    this.agentRegisteredAt = this.agentRegisteredAt.filter((at) => at > since);
    if (this.agentRegisteredAt.length >= limit.max)
      throw new HttpError(
        'WORKSPACE_LIMIT',
        `agent events registered ${limit.max} workspaces within ${Math.round(limit.windowMs / 60_000)} min, so ${root} is not recorded: to record it, run turnback init ${host === undefined || host === 'agent' ? '<host>' : host} --workspace ${root}`,
        { path: root },
      );
    this.agentRegisteredAt.push(this.now());
    const entry = this.registry.register(root);
    this.options.log?.(`an agent event from ${cwd} registered workspace ${root}`);
    return entry;
  }

  /** The deepest registered workspace holding `cwd` (`serve --workspace` may be a folder inside a repository). */
  private registeredHolding(cwd: string): RegisteredWorkspace | undefined {
    let real: string;
    try {
      real = realpathSync(cwd);
    } catch {
      return undefined;
    }
    let best: RegisteredWorkspace | undefined;
    for (const entry of this.registry.list()) {
      const inside = real === entry.root || real.startsWith(entry.root.endsWith('/') ? entry.root : `${entry.root}/`);
      if (inside && (!best || entry.root.length > best.root.length)) best = entry;
    }
    return best;
  }

  noteFailure(workspaceId: string, error: unknown): void {
    if (stopsRecording(error)) this.problems.set(workspaceId, (error as Error).message ?? String(error));
  }

  noteSuccess(workspaceId: string): void {
    this.problems.delete(workspaceId);
  }

  /** The engine's own error from the last failed open of a workspace. */
  openError(workspaceId: string): unknown {
    return this.openErrors.get(workspaceId);
  }

  /** What crash recovery did when the workspace's engine opened. */
  recoveryOf(workspaceId: string): Engine['recovery'] {
    return this.slots.get(workspaceId)?.engine?.recovery;
  }

  /** Why a workspace is not recording, or undefined. */
  problemOf(workspaceId: string): string | undefined {
    return this.problems.get(workspaceId);
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the engines unused for `idleMs` that have no active turn. */
  async closeIdle(idleMs: number): Promise<void> {
    const cutoff = this.now() - idleMs;
    for (const [id, slot] of this.slots) {
      if (!slot.engine || slot.lastUse > cutoff || this.builds?.pending(id) || !this.mayClose(id, slot)) continue;
      await this.closeSlot(id, slot);
    }
  }

  private async closeSlot(id: string, slot: Slot): Promise<void> {
    const engine = slot.engine;
    if (!engine) return;
    slot.engine = undefined;
    slot.unsubscribe?.();
    slot.closing = engine.close().then(
      () => undefined,
      (error: unknown) => this.options.log?.(`closing workspace ${id}: ${(error as Error).message}`),
    );
    await slot.closing;
  }

  /** Closes every engine (their active turns committed), each within `boundMs`. */
  async close(boundMs = 10_000): Promise<void> {
    clearInterval(this.sweep);
    this.builds?.close();
    const bound = new Promise((resolve) => setTimeout(resolve, boundMs).unref());
    await Promise.all(
      [...this.slots].map(async ([id, slot]) => {
        // A store stuck opening is given up on at the bound, as is a stuck close.
        const opened = slot.opening
          ? slot.opening.then(
              () => undefined,
              () => undefined,
            )
          : Promise.resolve();
        await Promise.race([opened.then(() => this.closeSlot(id, slot)), bound]);
      }),
    );
  }
}

/** The store's size on disk: the database and its write-ahead log. */
function storeBytes(dataDir: string): number {
  let bytes = 0;
  for (const name of ['turnback.db', 'turnback.db-wal']) {
    try {
      bytes += statSync(path.join(dataDir, 'store', name)).size;
    } catch {
      /* not there (yet) */
    }
  }
  return bytes;
}

function isDirectory(root: string): boolean {
  try {
    return statSync(root).isDirectory();
  } catch {
    return false;
  }
}
