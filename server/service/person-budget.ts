// The person's budget over all the service's workspaces (docs/api.md "Store budget"): after a turn
// commits anywhere, and when the budget changes, while the contents kept over every workspace are
// over it, the person's least recently active prunable session goes, one at a time, across
// workspaces. In the background, one run at a time; engines are leased only while over.
import type { EngineLease, EngineSource } from '../http/engine-source.js';
import type { PersonBudget } from '../protocol.js';
import { readPersonBudgetSetting, writePersonBudgetSetting } from './person-budget-setting.js';

const GIB = 1024 * 1024 * 1024;

export interface PersonBudgetOptions {
  source: EngineSource;
  /** Where the setting is kept (the service's own state dir). */
  stateDir: string;
  /** `--person-budget` in bytes; the setting goes over it. */
  flagBytes?: number;
  log: (line: string) => void;
}

/** A size as the person reads it: GiB from 1 GiB up, else MiB. */
function sizeText(bytes: number): string {
  return bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export class PersonBudgetKeeper {
  /** Each workspace's contents as stored, as its engine last told. */
  private readonly known = new Map<string, number>();
  private pruned = 0;
  /** Pruned since a hook's message last told: how many, and of which workspaces. */
  private untold = { count: 0, workspaces: new Set<string>() };
  private running: Promise<void> = Promise.resolve();
  /** A run is queued: further triggers join it. */
  private queued = false;
  private stopped = false;
  private readonly told = new Set<string>();
  /** Said that nothing may go: not again until something went or the stores got within. */
  private stuckTold = false;

  constructor(private readonly options: PersonBudgetOptions) {}

  /** Follows the workspaces' commits; answers the stop. */
  start(): () => void {
    const unsubscribe = this.options.source.onEvent((name) => {
      // Without a budget there is nothing to keep; the run's listing learns the open workspaces' usage.
      if (name === 'turn-committed' && this.bytes() !== null) this.enforceSoon();
    });
    if (this.bytes() !== null) this.enforceSoon();
    return () => {
      this.stopped = true;
      unsubscribe();
    };
  }

  /** The budget in bytes: the setting, else the flag, else null (none). */
  bytes(): number | null {
    return readPersonBudgetSetting(this.options.stateDir) ?? this.options.flagBytes ?? null;
  }

  status(): PersonBudget {
    const set = readPersonBudgetSetting(this.options.stateDir);
    const workspaces = this.listed();
    // A closed workspace counts as last known.
    const used = workspaces.reduce((sum, workspace) => sum + (this.known.get(workspace.id) ?? 0), 0);
    return {
      bytes: set ?? this.options.flagBytes ?? null,
      source: set !== null ? 'setting' : this.options.flagBytes !== undefined ? 'service' : 'none',
      used,
      workspaces: workspaces.length,
      prunedForPersonBudget: this.pruned,
    };
  }

  /** The service's workspaces; an open one tells its usage with its listing, noted. */
  private listed(): ReturnType<EngineSource['list']> {
    const workspaces = this.options.source.list();
    for (const workspace of workspaces) if (workspace.budget) this.known.set(workspace.id, workspace.budget.used);
    return workspaces;
  }

  /** Sets the budget (null: back to the flag's, else none), prunes to it, and answers it. */
  async set(bytes: number | null): Promise<PersonBudget> {
    writePersonBudgetSetting(this.options.stateDir, bytes);
    this.enforceSoon();
    await this.settled();
    return this.status();
  }

  /** Resolves once no run is under way or queued. */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.running;
      await last;
    } while (last !== this.running);
  }

  /**
   * The line the next forwarded hook answer shows the person once after sessions were pruned for
   * the budget (null when none were since); the hook receiver makes it one safe line.
   */
  takeNews(): string | null {
    if (this.untold.count === 0) return null;
    const { count, workspaces } = this.untold;
    this.untold = { count: 0, workspaces: new Set() };
    const sessions = count === 1 ? 'oldest session' : `${count} oldest sessions`;
    const budget = this.bytes();
    const within = budget === null ? 'your budget' : `your ${sizeText(budget)} budget`;
    return `turnback pruned the ${sessions} (of ${[...workspaces].join(', ')}) to keep your stores within ${within} (turnback budget --person changes it)`;
  }

  private enforceSoon(): void {
    if (this.queued || this.stopped) return;
    this.queued = true;
    this.running = this.running
      .then(() => {
        this.queued = false;
        return this.enforce();
      })
      .catch((error: unknown) => this.complain(`the person budget was not kept: ${(error as Error).message}`));
  }

  private complain(line: string): void {
    if (this.told.has(line)) return;
    this.told.add(line);
    this.options.log(line);
  }

  /** A workspace's engine for `work`, its usage noted; undefined when it does not open (said once). */
  private async withEngine<T>(
    workspaceId: string,
    work: (lease: EngineLease) => Promise<T> | T,
  ): Promise<T | undefined> {
    let lease: EngineLease;
    try {
      lease = await this.options.source.consoleEngine(workspaceId);
    } catch (error) {
      this.complain(`the person budget cannot count workspace ${workspaceId}: ${(error as Error).message}`);
      return undefined;
    }
    try {
      const answer = await work(lease);
      this.known.set(workspaceId, lease.engine.storeStats().budget.used);
      return answer;
    } finally {
      lease.release?.();
    }
  }

  private async enforce(): Promise<void> {
    const budget = this.bytes();
    if (budget === null || this.stopped) return;
    const workspaces = this.listed();
    const ids = new Set(workspaces.map((workspace) => workspace.id));
    for (const id of this.known.keys()) if (!ids.has(id)) this.known.delete(id);
    // One never learned (closed since the start): its engine once.
    for (const workspace of workspaces)
      if (!this.known.has(workspace.id)) await this.withEngine(workspace.id, () => undefined);
    const total = () => [...this.known.values()].reduce((sum, used) => sum + used, 0);
    while (total() > budget && !this.stopped) {
      // Over: every workspace's oldest prunable session, to take the oldest of all.
      let oldest: { workspaceId: string; sessionId: string; lastActivity: number } | undefined;
      for (const id of [...this.known.keys()]) {
        const candidate = await this.withEngine(id, ({ engine }) => engine.personBudgetCandidate());
        if (candidate && (!oldest || candidate.lastActivity < oldest.lastActivity))
          oldest = { workspaceId: id, ...candidate };
      }
      if (total() <= budget) break;
      if (!oldest) {
        if (this.stuckTold) return;
        this.stuckTold = true;
        this.options.log(
          `the stores take ${sizeText(total())}, over the person budget of ${sizeText(budget)}, and no session may be pruned (each is being recorded, pinned, or its workspace's latest)`,
        );
        return;
      }
      const over = total();
      const why = `the stores took ${over} of ${budget} bytes`;
      const gone = await this.withEngine(oldest.workspaceId, ({ engine }) =>
        engine.pruneForPersonBudget(oldest.sessionId, why),
      );
      if (!gone) return; // kept by a turn begun meanwhile, or the store did not open: the next commit tries again
      this.stuckTold = false;
      this.pruned++;
      this.untold.count++;
      const name = workspaces.find((workspace) => workspace.id === oldest.workspaceId)?.name ?? oldest.workspaceId;
      this.untold.workspaces.add(name);
    }
    if (total() <= budget) this.stuckTold = false;
  }
}
