// The store budget: after a commit, while the contents kept are over it, the oldest sessions go
// first — never one with a turn being recorded, one a pin keeps, or the most recent session.
import type { StoreBudget } from '../../protocol.js';
import { readBudgetSetting, writeBudgetSetting } from '../db/budget-setting.js';
import { type GcDeps, dropSession, sweepContents } from './gc.js';
import { pinnedSince } from './pins.js';

const GIB = 1024 * 1024 * 1024;
/** The default budget is the larger of this and DEFAULT_FACTOR times the workspace's tracked size. */
const DEFAULT_FLOOR = 2 * GIB;
const DEFAULT_FACTOR = 10;

/** The budget in bytes: the one set (`--store-budget`), else the default from the workspace's size. */
export function storeBudget(ctx: GcDeps): number {
  return ctx.limits.storeBudget ?? Math.max(DEFAULT_FLOOR, DEFAULT_FACTOR * ctx.store.index.trackedBytes());
}

/** What the store's contents take, as stored. */
export function storeUsed(ctx: GcDeps): number {
  return ctx.contents.stats().storedBytes;
}

/**
 * The sessions a budget may prune, least recently active first: never one with a turn being
 * recorded, one a pin keeps (the pin's and every one active since it), nor the most recent.
 */
function prunableOldestFirst(ctx: GcDeps): { sessionId: string; lastActivity: number }[] {
  const busy = ctx.turns.busySessions();
  const pinned = pinnedSince(ctx);
  // list() is newest activity first: the newest (index 0) always stays.
  return ctx.store.sessions
    .list()
    .slice(1)
    .filter((s) => !s.activeTurnId && !busy.has(s.sessionId) && (pinned === null || s.lastActivity < pinned))
    .reverse();
}

/** Prunes the oldest prunable sessions until the store is within its budget; answers how many went. */
export function pruneForBudget(ctx: GcDeps): number {
  const before = storeUsed(ctx);
  // Under the default's floor, the workspace's size need not be summed: the common case.
  if (ctx.limits.storeBudget === null && before <= DEFAULT_FLOOR) return 0;
  const budget = storeBudget(ctx);
  if (before <= budget) return 0;
  let dropped = 0;
  for (const s of prunableOldestFirst(ctx)) {
    dropSession(ctx, s.sessionId);
    dropped++;
    ctx.retention.prunedForBudget++;
    sweepContents(ctx);
    const used = storeUsed(ctx);
    ctx.log(
      `pruned session ${s.sessionId} (last active ${new Date(s.lastActivity).toISOString()}) for the store budget: ${used} of ${budget} bytes used`,
    );
    if (used <= budget) break;
  }
  return dropped;
}

/** The budget as GET /api/store tells it. */
export function budgetOf(ctx: GcDeps): StoreBudget {
  const own = readBudgetSetting(ctx.store) !== null;
  return {
    bytes: storeBudget(ctx),
    used: storeUsed(ctx),
    prunedForBudget: ctx.retention.prunedForBudget,
    prunedForPersonBudget: ctx.retention.prunedForPersonBudget,
    source: own ? 'workspace' : ctx.limits.openedBudget !== null ? 'service' : 'default',
  };
}

/** Sets the workspace's own budget (null: back to the service's or the default), kept in its store; prunes at once to it. */
export function setBudget(ctx: GcDeps, bytes: number | null): StoreBudget {
  ctx.store.transaction(() => writeBudgetSetting(ctx.store, bytes));
  ctx.limits.storeBudget = bytes ?? ctx.limits.openedBudget;
  pruneForBudget(ctx);
  return budgetOf(ctx);
}

/**
 * The line a hook shows the person once after sessions were pruned for the budget (null when
 * none were since the last one); the hook receiver makes it one safe line.
 */
export function takeBudgetNews(ctx: GcDeps, workspace: string): string | null {
  const untold = ctx.retention.prunedForBudget - ctx.retention.toldForBudget;
  if (untold <= 0) return null;
  ctx.retention.toldForBudget = ctx.retention.prunedForBudget;
  const mib = (storeBudget(ctx) / 1024 / 1024).toFixed(1);
  return `turnback pruned the ${untold === 1 ? 'oldest session' : `${untold} oldest sessions`} of ${workspace} to keep its store within its ${mib} MiB budget (turnback budget changes it)`;
}

/** The session the person's budget over all their workspaces would prune first here (the same rules), or null. */
export function personBudgetCandidate(ctx: GcDeps): { sessionId: string; lastActivity: number } | null {
  const [oldest] = prunableOldestFirst(ctx);
  return oldest ? { sessionId: oldest.sessionId, lastActivity: oldest.lastActivity } : null;
}

/**
 * Prunes one session for the person's budget when the rules still let it go (false when not),
 * counted apart from the workspace's own budget; `why` ends the log line.
 */
export function pruneForPersonBudget(ctx: GcDeps, sessionId: string, workspace: string, why: string): boolean {
  const s = prunableOldestFirst(ctx).find((candidate) => candidate.sessionId === sessionId);
  if (!s) return false;
  dropSession(ctx, sessionId);
  ctx.retention.prunedForPersonBudget++;
  sweepContents(ctx);
  ctx.log(
    `pruned session ${sessionId} of ${workspace} (last active ${new Date(s.lastActivity).toISOString()}) for the person budget: ${why}`,
  );
  return true;
}
