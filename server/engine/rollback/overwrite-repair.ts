// Files a rollback turn was writing over in place when it stopped short (db/overwrites.ts names
// them, before the first byte is written): each is finished before the turn is committed from
// what is on disk, on the next open after a crash or when a rollback finds the turn stranded.
//
// A file that holds its old or its new content is as the write left it. One whose bytes a
// write of the new content over the old explains (each byte the new one's, the old one's, or
// zero, as a power cut may leave it; its size between the two; its mode either one's) was cut
// short by it: it is written whole with the new content, by rename, replacing only that very
// file. Anything else is not the write's doing (a change made since): it is left as it is, and
// the rollback turn records it as it finds it.
import type { State } from '../../protocol.js';
import { type ContentStore, IN_MEMORY_LIMIT, UnrestorableContentError } from '../content/contents.js';
import { replaceContent } from '../content/write-back.js';
import type { Overwrite, Overwrites } from '../db/overwrites.js';
import type { EngineFs } from '../paths/fs.js';
import { SET_ID_BITS } from '../paths/overwrite.js';
import type { Roots } from '../paths/roots.js';
import { readStateNoFollow } from '../state/read-state.js';
import { seenOf, unchangedSince } from '../state/seen.js';

/** What finishing touches: the disk under the roots, the contents, the named files, the log. */
export interface RepairDeps {
  fs: EngineFs;
  roots: Roots;
  contents: ContentStore;
  store: { overwrites: Overwrites };
  log(line: string): void;
}

type FileState = Extract<State, { type: 'file' }>;

/** Whether `now` is what a write of `after` over `before`, from the start, can leave when cut short. */
export function cutShortBetween(now: Uint8Array, before: Uint8Array, after: Uint8Array): boolean {
  const shorter = Math.min(before.length, after.length);
  const longer = Math.max(before.length, after.length);
  if (now.length < shorter || now.length > longer) return false;
  for (let i = 0; i < now.length; i++) {
    const b = now[i];
    if (b !== 0 && !(i < after.length && b === after[i]) && !(i < before.length && b === before[i])) return false;
  }
  return true;
}

/** The modes a file written over in place has on the way: its old one (set-id bits cleared by a write), or the new. */
function modeOnTheWay(mode: number, o: { before: FileState; target: FileState }): boolean {
  return mode === o.target.mode || mode === o.before.mode || mode === (o.before.mode & ~SET_ID_BITS);
}

function contentOf(ctx: RepairDeps, hash: string): Buffer | null {
  try {
    return ctx.contents.read(hash);
  } catch (e) {
    if (e instanceof UnrestorableContentError) return null;
    throw e;
  }
}

type Outcome = 'as-written' | 'finished' | 'left';

async function finishOne(ctx: RepairDeps, o: Overwrite): Promise<Outcome> {
  const { before, target } = o;
  if (before?.type !== 'file' || target?.type !== 'file') return 'left';
  const located = ctx.roots.absOf(o.uri);
  if (!located) return 'left';
  const read = await readStateNoFollow(ctx.fs, located.abs, { maxFileSize: IN_MEMORY_LIMIT, excluded: false });
  const now = read.state;
  // Gone, a link, a folder, too large to be either content: not what the write left.
  if (now?.type !== 'file' || !read.bytes || !read.stats || !modeOnTheWay(now.mode, { before, target })) return 'left';
  if (now.hash === target.hash) {
    // Whole, its mode not given yet.
    if (now.mode !== target.mode) await ctx.fs.chmod(located.abs, target.mode);
    return now.mode === target.mode ? 'as-written' : 'finished';
  }
  if (now.hash === before.hash) return 'as-written';
  const [old, fresh] = [contentOf(ctx, before.hash), contentOf(ctx, target.hash)];
  if (!old || !fresh || !cutShortBetween(read.bytes, old, fresh)) return 'left';
  const seen = seenOf(read.stats, Date.now());
  await replaceContent(ctx.fs, ctx.contents, target.hash, located.abs, target.mode, fresh.length, (s) =>
    unchangedSince(seen, s ?? null),
  );
  return 'finished';
}

/** Finishes the files the turn was writing over in place; answers how many were cut short and are whole now. */
export async function finishOverwrites(ctx: RepairDeps, turnId: string): Promise<number> {
  let finished = 0;
  for (const o of ctx.store.overwrites.of(turnId)) {
    try {
      const outcome = await finishOne(ctx, o);
      if (outcome === 'finished') finished++;
      if (outcome === 'left') ctx.log(`${o.uri}: left as it is (not what writing it over in place leaves)`);
    } catch (e) {
      // Left part old, part new: the turn records it as it is, and nothing it held is lost (both are kept).
      ctx.log(`${o.uri}: could not be finished (${(e as Error).message})`);
    }
  }
  if (finished > 0) ctx.log(`finished ${finished} file(s) a rollback was writing when it stopped`);
  return finished;
}
