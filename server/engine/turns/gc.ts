// Garbage collection: sessions beyond `keepSessions` (least recently active first, the person's
// and the agents' counted apart, never one with a turn being recorded), session deletion, and
// the sweep of contents nothing needs.
import type { SessionOrigin } from '../../protocol.js';
import type { ContentHolders } from '../content/holders.js';
import type { ContentStore } from '../content/contents.js';
import type { EngineLimits } from '../context.js';
import type { Store } from '../db/store.js';
import type { Events } from '../events.js';
import type { ActiveTurns } from './active-turns.js';
import { pinnedSince } from './pins.js';

/**
 * What retention touches. The whole store: dropping a session deletes across every table group
 * in one transaction (Store.deleteSession).
 */
export interface GcDeps {
  store: Store;
  contents: ContentStore;
  holders: ContentHolders;
  turns: ActiveTurns;
  events: Events;
  limits: EngineLimits;
  /** `toldForBudget`: of the sessions pruned for the budget, how many a hook's message has told of. */
  retention: { pruned: number; prunedForBudget: number; toldForBudget: number; prunedForPersonBudget: number };
  log(line: string): void;
  now(): number;
}

/** Drops a session's turns, messages and entries; its turn counter stays. */
export function dropSession(ctx: GcDeps, sessionId: string): void {
  const turnIds = ctx.store.transaction(() => ctx.store.deleteSession(sessionId));
  for (const id of turnIds) ctx.turns.end(id);
  ctx.events.emit('session-deleted', { sessionId });
}

/**
 * Removes contents no turn references and the workspace index does not name. One transaction:
 * a content being captured is stored by the transaction that references it, so none can be
 * caught in between.
 */
export function sweepContents(ctx: GcDeps): number {
  const held = ctx.holders.heldHashes();
  const unused = ctx.contents.unreferenced().filter((hash) => !held.has(hash));
  if (unused.length > 0)
    ctx.store.transaction(() => {
      ctx.contents.removeAll(unused);
    });
  return unused.length;
}

const DAY_MS = 86_400_000;
/** A session active this recently is never pruned, whatever the limits say. */
const PROTECTED_MS = DAY_MS;

/**
 * Retention (docs/api.md): after a commit, a session goes when it has been idle longer than
 * `keepDays`, or (with `keepSessions` set) when it is beyond the n most recently active of its
 * origin — never one active in the last 24 hours or with a turn being recorded. The person's
 * sessions and the agents' are ranked apart, so however many sessions the agent token opens,
 * they only ever push out the agents' own. Answers how many went.
 */
export function pruneSessions(ctx: GcDeps): number {
  const { keepDays, keepSessions } = ctx.limits;
  const now = ctx.now();
  const idleBefore = keepDays > 0 ? now - keepDays * DAY_MS : -Infinity;
  // The common case costs one indexed query, not a listing of every session.
  const tooOld = keepDays > 0 && ctx.store.sessions.anyIdleBefore(Math.min(idleBefore, now - PROTECTED_MS));
  const tooMany = keepSessions > 0 && ctx.store.sessions.count() > keepSessions;
  if (!tooOld && !tooMany) return 0;
  const busy = ctx.turns.busySessions();
  // A pin keeps its own session and every one active since it: their turns hold what reaching it needs.
  const pinned = pinnedSince(ctx);
  let dropped = 0;
  /** Sessions of each origin seen so far, newest activity first: a session's rank among its own. */
  const ranked: Record<SessionOrigin, number> = { person: 0, agent: 0 };
  for (const s of ctx.store.sessions.list()) {
    const rank = ranked[s.origin]++;
    if (s.activeTurnId || busy.has(s.sessionId) || now - s.lastActivity < PROTECTED_MS) continue;
    if (pinned !== null && s.lastActivity >= pinned) continue;
    const old = s.lastActivity < idleBefore;
    const beyond = keepSessions > 0 && rank >= keepSessions;
    if (!old && !beyond) continue;
    dropSession(ctx, s.sessionId);
    dropped++;
    ctx.retention.pruned++;
    const why = old
      ? `idle more than ${keepDays} days`
      : `beyond the ${keepSessions} most recently active of the ${s.origin === 'agent' ? "agents'" : "person's"} sessions`;
    ctx.log(`pruned session ${s.sessionId} (last active ${new Date(s.lastActivity).toISOString()}, ${why})`);
  }
  if (dropped > 0) sweepContents(ctx);
  return dropped;
}
