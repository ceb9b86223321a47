// A conflict answered by keeping both: a file a later turn or the person changed is left as it
// is, and the version the rollback would restore is written beside it, at
// `<name>.turnback-<turn number>` (never over a file that exists: `-2`, `-3`, … then). The copy is
// written by the rollback turn like any other path, so undoing the rollback removes it again.
import type { State } from '../../protocol.js';
import type { EngineFs } from '../paths/fs.js';
import type { Roots } from '../paths/roots.js';
import { readStateNoFollow } from '../state/read-state.js';
import type { EvaluatedPath } from './plan.js';

/** What keeping both reads: the disk under the roots, and the size limit. */
export interface KeepBothDeps {
  fs: EngineFs;
  roots: Roots;
  limits: { maxFileSize: number };
}

export interface KeptBoth {
  uri: string;
  copy: string;
  /** What the path holds now (and keeps). */
  current: State;
}

/**
 * Turns the conflicts that can keep both into copies: a conflicting file (the path holds a file
 * now, a file is to be restored) becomes a copy written beside it; a conflict whose path holds
 * nothing now is restored in place (nothing is lost). Other conflicts stay conflicts. Answers the
 * paths to drive and what was kept.
 */
export async function keepBoth(
  ctx: KeepBothDeps,
  paths: EvaluatedPath[],
  turnNumber: number,
): Promise<{ paths: EvaluatedPath[]; kept: KeptBoth[] }> {
  const taken = new Set(paths.map((p) => p.uri));
  const kept: KeptBoth[] = [];
  const out: EvaluatedPath[] = [];
  for (const p of paths) {
    if (p.soft || p.status !== 'conflict' || p.target?.type !== 'file') {
      out.push(p);
      continue;
    }
    if (p.current === null) {
      out.push({ ...p, status: 'action' });
      continue;
    }
    if (p.current.type !== 'file') {
      out.push(p);
      continue;
    }
    const copy = await freeName(ctx, p.uri, turnNumber, taken);
    taken.add(copy);
    kept.push({ uri: p.uri, copy, current: p.current });
    out.push({
      uri: copy,
      target: p.target,
      expected: null,
      current: null,
      status: 'action',
      resolved: ctx.roots.locate(copy),
    });
  }
  return { paths: out, kept };
}

async function freeName(
  ctx: KeepBothDeps,
  uri: string,
  turnNumber: number,
  taken: ReadonlySet<string>,
): Promise<string> {
  for (let n = 1; ; n++) {
    const copy = `${uri}.turnback-${turnNumber}${n === 1 ? '' : `-${n}`}`;
    if (taken.has(copy)) continue;
    const read = await readStateNoFollow(ctx.fs, ctx.roots.locate(copy).abs, {
      maxFileSize: ctx.limits.maxFileSize,
      excluded: false,
    });
    if (read.state === null && read.ancestors !== 'link') return copy;
  }
}
