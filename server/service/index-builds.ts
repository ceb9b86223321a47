// The service's background index builds (docs/design.md "Index build"): a workspace registered
// (`init`, `POST /api/workspaces`, an agent's first event) or left not whole by an earlier run
// has its engine opened and its index built, one workspace at a time (two cores are shared with
// the agents). How each build ended is kept in the registry, so a restart builds only the ones
// not whole, and `GET /api/workspaces` tells it while the engine is closed.
import type { Engine } from '../engine/api.js';
import type { IndexBuildStatus } from '../protocol.js';

export interface IndexBuildsOptions {
  /** The workspace's engine, opened when it is not. */
  engine(id: string): Promise<Engine>;
  /** How the latest build of `id` ended (the registry keeps it). */
  note(id: string, status: IndexBuildStatus): void;
  log?: (line: string) => void;
}

export class IndexBuilds {
  private readonly queued = new Set<string>();
  /** The workspace whose build runs now: its engine is not closed under it. */
  private current: string | undefined;
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: IndexBuildsOptions) {}

  /** Builds `id`'s index after the builds queued before it (nothing when it is whole once opened). */
  request(id: string): Promise<void> {
    if (this.closed || this.queued.has(id)) return this.tail;
    this.queued.add(id);
    this.tail = this.tail.then(() => this.build(id));
    return this.tail;
  }

  /** Whether `id` waits for its build or has one running: its engine stays open meanwhile. */
  pending(id: string): boolean {
    return this.queued.has(id);
  }

  /** Whether `id`'s build runs now (a queued one may have its engine closed meanwhile: it opens it again). */
  running(id: string): boolean {
    return this.current === id;
  }

  /** No build starts after this; the running one stops with its engine's close. */
  close(): void {
    this.closed = true;
  }

  /** Resolves once every queued build has ended (tests). */
  settled(): Promise<void> {
    return this.tail;
  }

  private async build(id: string): Promise<void> {
    this.current = id;
    try {
      if (this.closed) return;
      let engine: Engine;
      try {
        engine = await this.options.engine(id);
      } catch {
        return; // the host says why the workspace does not record
      }
      const status = await engine.buildIndex().catch((error: unknown) => {
        // A closed engine (idle close, shutdown) before the build began: built next time.
        this.options.log?.(`index build of ${id}: ${(error as Error).message}`);
        return null;
      });
      if (status) this.options.note(id, status);
    } finally {
      this.queued.delete(id);
      this.current = undefined;
    }
  }
}
