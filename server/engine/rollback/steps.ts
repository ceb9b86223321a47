// The steps of a turn: its entries grouped by the tool call or shell command that made them, in
// the order they first changed something. A step can be undone on its own: each of its paths
// goes back to its state before that step, and everything else stays as the turn left it. A path
// a later step of the same turn changed again is a conflict, named by that step.
import type { ExecCommand, State, Step } from '../../protocol.js';
import type { Entries, StoredEntry } from '../db/entries.js';
import type { Roots } from '../paths/roots.js';
import type { StoredTurn } from '../db/turns.js';
import { BadRequestError } from '../errors.js';
import { cut } from '../record/step-ref.js';
import { sameState } from '../state/state.js';
import type { Coverage, MoveLink, PathTarget } from './plan.js';

/** What a turn's steps read: its entries, and which roots are tracked. */
export interface StepDeps {
  roots: Roots;
  store: { entries: Entries };
}

export interface StepGroup {
  step: Step;
  entries: StoredEntry[];
}

/** The turn's steps, each with its entries, in the order they first changed something. */
export function stepGroups(ctx: StepDeps, turnId: string, commands: readonly ExecCommand[]): StepGroup[] {
  const groups = new Map<string, StepGroup>();
  for (const e of ctx.store.entries.of(turnId)) {
    const key = e.execId ? `x:${e.execId}` : e.stepId ? `s:${e.stepId}` : `e:${e.seq}`;
    let group = groups.get(key);
    if (!group) {
      const command = e.execId ? commands.find((c) => c.execId === e.execId) : undefined;
      group = {
        step: {
          index: groups.size + 1,
          stepId: e.execId ?? e.stepId ?? `entry-${e.seq}`,
          kind: e.execId ? 'command' : 'tool',
          title: command ? cut(`${command.tool}(${command.command.split('\n')[0]})`) : (e.stepTitle ?? titleOf(e)),
          paths: [],
        },
        entries: [],
      };
      groups.set(key, group);
    }
    group.entries.push(e);
    for (const uri of e.toUri ? [e.uri, e.toUri] : [e.uri]) {
      if (ctx.roots.isTrackedUri(uri) && !group.step.paths.includes(uri)) group.step.paths.push(uri);
    }
  }
  return [...groups.values()];
}

/** What undoing the chosen steps covers, and the later step behind each path changed again since. */
export function stepCoverage(
  ctx: StepDeps,
  turn: StoredTurn,
  groups: StepGroup[],
  indexes: number[],
): { coverage: Coverage; laterSteps: Map<string, Step> } {
  for (const i of indexes) {
    if (!Number.isInteger(i) || i < 1 || i > groups.length)
      throw new BadRequestError(`no step ${i} in turn #${turn.number} (it has ${groups.length})`, { step: i });
  }
  const chosen = new Set(indexes);
  const stepOf = new Map<number, Step>();
  for (const g of groups) for (const e of g.entries) stepOf.set(e.seq, g.step);
  const finals = new Map<string, State>();
  for (const change of ctx.store.entries.changesOf(turn.turnId)) finals.set(change.uri, change.after);
  const byUri = new Map<string, PathTarget>();
  /** Paths whose state after their last chosen change is not known yet (no later entry has been seen). */
  const open = new Set<string>();
  const laterSteps = new Map<string, Step>();
  const links: MoveLink[] = [];
  const entries = groups.flatMap((g) => g.entries).sort((a, b) => a.seq - b.seq);
  for (const e of entries) {
    const step = stepOf.get(e.seq)!;
    const sides: [string, State, State, StoredEntry['skipped']][] = [[e.uri, e.before, e.after, e.skipped]];
    if (e.toUri) sides.push([e.toUri, e.toBefore, e.toAfter, e.toSkipped]);
    for (const [uri, before, after, skipped] of sides) {
      if (!ctx.roots.isTrackedUri(uri)) continue;
      if (!finals.has(uri)) finals.set(uri, after);
      if (chosen.has(step.index)) {
        if (!byUri.has(uri))
          byUri.set(uri, {
            uri,
            target: before,
            expected: null,
            ...(skipped ? { skipped } : {}),
          });
        open.add(uri);
      } else if (open.has(uri)) {
        // The state a later step found is the state the chosen step left.
        byUri.get(uri)!.expected = before;
        open.delete(uri);
        if (!laterSteps.has(uri)) laterSteps.set(uri, step);
      }
    }
    if (chosen.has(step.index) && (e.op === 'rename' || e.op === 'move') && e.toUri)
      links.push({ from: e.uri, to: e.toUri });
  }
  for (const uri of open) byUri.get(uri)!.expected = finals.get(uri) ?? null;
  // A path the chosen steps touched but left as they found it (a host announcing a change it did
  // not make) is not theirs to take back: a later step's change to it stays.
  const changed = [...byUri.values()].filter((p) => !sameState(p.target, p.expected));
  return { coverage: { turns: [turn], paths: changed, links: links.reverse() }, laterSteps };
}

function titleOf(e: StoredEntry): string {
  const rel = (uri: string) => uri.slice(uri.indexOf(':/') + 2);
  const verb = e.op.charAt(0).toUpperCase() + e.op.slice(1);
  return cut(e.toUri ? `${verb}(${rel(e.uri)} → ${rel(e.toUri)})` : `${verb}(${rel(e.uri)})`);
}
