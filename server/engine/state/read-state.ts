// Path states (docs/api.md `State`): what a path held at some moment, read from disk.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { SkipReason, State } from '../../protocol.js';
import { type ContentBatch, IN_MEMORY_LIMIT, type PendingContent, sha256 } from '../content/contents.js';
import { LinkOnPathError } from '../errors.js';
import { type EngineFs, errnoCode } from '../paths/fs.js';
import { GrewPastLimitError, specialKindOf } from '../paths/file-read.js';
import { keepLimit, sizeSkip } from './size-limit.js';
import { modeOf } from './state.js';

/** Whether a file's content is hashed: always, never (only its kind, size and mode matter), or only at one size. */
export type HashPolicy = 'always' | 'never' | { onlyIfSize: number };

export interface ReadStateOptions {
  /** Keep the content into this batch (a capture); otherwise it is only hashed. */
  keep?: ContentBatch;
  hash?: HashPolicy;
  maxFileSize: number;
  /** A content larger than this budget on its own is skipped `budget` (size-limit.ts). */
  storeBudget?: number | null;
  excluded: boolean;
}

export interface ReadState {
  state: State;
  skipped?: SkipReason;
  /** The content's raw bytes, when it was read whole into memory (small files). */
  bytes?: Buffer;
  /** The lstat the state was read by (taken before any content was read); none when absent. */
  stats?: Stats;
}

/** Where `hashFile` reads: the engine's seam by path, or a scan's directory handle by name; never past `limit` bytes. */
export interface FileSource {
  readSmallFile(p: string, limit: number): Promise<Buffer>;
  readChunks(p: string, limit: number): AsyncGenerator<Buffer>;
}

/**
 * Hash of a file on disk, read in bounded chunks; nothing is kept. `size` is what was read (a
 * file may have changed since its lstat); past `limit` it is GrewPastLimitError (file-read.ts).
 */
export async function hashFile(
  fs: FileSource,
  abs: string,
  knownSize: number,
  limit: number,
): Promise<{ hash: string; size: number; bytes?: Buffer }> {
  if (knownSize <= IN_MEMORY_LIMIT) {
    const bytes = await fs.readSmallFile(abs, limit);
    return { hash: sha256(bytes), size: bytes.length, bytes };
  }
  const hasher = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.readChunks(abs, limit)) {
    hasher.update(chunk);
    size += chunk.length;
  }
  return { hash: hasher.digest('hex'), size };
}

/** A file's content kept into `batch`: read whole when small (its bytes returned too), in bounded chunks otherwise; never past `limit`. */
export async function keepFile(
  fs: FileSource,
  abs: string,
  knownSize: number,
  limit: number,
  batch: ContentBatch,
): Promise<PendingContent & { bytes?: Buffer }> {
  if (knownSize <= IN_MEMORY_LIMIT) {
    const bytes = await fs.readSmallFile(abs, limit);
    return { ...batch.keepBytes(bytes), bytes };
  }
  return batch.keepStream(fs.readChunks(abs, limit));
}

/** The read found the file grown past the limit since its lstat: skipped as too large, nothing kept. */
export function grewPastLimit(e: unknown): boolean {
  return e instanceof GrewPastLimitError;
}

/** Whether a read failed because the file itself may not be read (a skip), not something on the way to it. */
export function isUnreadableFile(e: unknown, abs: string): boolean {
  const code = errnoCode(e);
  return (code === 'EACCES' || code === 'EPERM') && (e as NodeJS.ErrnoException).path === abs;
}

function wanted(policy: HashPolicy | undefined, size: number): boolean {
  if (policy === undefined || policy === 'always') return true;
  if (policy === 'never') return false;
  return policy.onlyIfSize === size;
}

/**
 * Looks made at a path that changes kind between its lstat and its read (a file swapped for a
 * link, or back) before giving up: a read by path then reports a link on the way, a scan records
 * the path unreadable.
 */
export const SWAP_TRIES = 3;

export async function readState(fs: EngineFs, abs: string, options: ReadStateOptions): Promise<ReadState> {
  for (let attempt = 1; ; attempt++) {
    try {
      const seen: { stats?: Stats } = {};
      const read = await readStateOnce(fs, abs, options, seen);
      return seen.stats ? { ...read, stats: seen.stats } : read;
    } catch (e) {
      const code = errnoCode(e);
      // The reads never follow a link (ELOOP), readlink refuses a file (EINVAL) and a read opens only
      // a regular file (EFTYPE: a FIFO or device swapped in): looked at again.
      if (code !== 'ELOOP' && code !== 'EINVAL' && code !== 'EFTYPE') throw e;
      if (attempt === SWAP_TRIES) throw new LinkOnPathError(abs);
    }
  }
}

async function readStateOnce(
  fs: EngineFs,
  abs: string,
  options: ReadStateOptions,
  seen: { stats?: Stats },
): Promise<ReadState> {
  const stats = await fs.lstatOrNull(abs);
  if (stats) seen.stats = stats;
  // An excluded path is never restored or deleted, so it stays skipped even while absent.
  if (!stats) return options.excluded ? { state: null, skipped: 'excluded' } : { state: null };
  if (stats.isSymbolicLink()) return { state: { type: 'symlink', target: await fs.readlink(abs) } };
  if (stats.isDirectory()) {
    return options.excluded
      ? { state: { type: 'dir', mode: modeOf(stats.mode) }, skipped: 'excluded' }
      : { state: { type: 'dir', mode: modeOf(stats.mode) } };
  }
  const mode = modeOf(stats.mode);
  const unhashed = { type: 'file' as const, hash: '', size: stats.size, mode };
  // A FIFO, socket or device is told as what it is, never opened; it has no content to keep.
  if (!stats.isFile())
    return { state: { type: 'special', kind: specialKindOf(stats) ?? 'char', mode }, skipped: 'unreadable' };
  if (options.excluded) return { state: unhashed, skipped: 'excluded' };
  const over = sizeSkip(options, stats.size);
  if (over) return { state: unhashed, skipped: over };
  if (!options.keep && !wanted(options.hash, stats.size)) return { state: unhashed };
  try {
    if (options.keep) {
      const kept = await keepFile(fs, abs, stats.size, keepLimit(options), options.keep);
      return { state: { type: 'file', hash: kept.hash, size: kept.size, mode }, bytes: kept.bytes };
    }
    const { hash, size, bytes } = await hashFile(fs, abs, stats.size, keepLimit(options));
    return { state: { type: 'file', hash, size, mode }, bytes };
  } catch (e) {
    if (grewPastLimit(e)) {
      const { size } = e as GrewPastLimitError;
      return { state: { ...unhashed, size }, skipped: sizeSkip(options, size) ?? 'too-large' };
    }
    // Only the file itself being unreadable is a skip; any other failure stops the operation.
    if (isUnreadableFile(e, abs)) return { state: unhashed, skipped: 'unreadable' };
    throw e;
  }
}

/** What lies between a root and a path: real directories (or a gap), or a symlink. */
export type AncestorState = 'dirs' | 'link';

/**
 * A path's state without following any symlink on the way: below a link or a gap it is absent.
 * The seam's walk from the root is the check of what lies between: a folder that is a symlink
 * when the path is read (planted, or swapped in a moment ago) is its race error, answered here
 * as a link on the way (`linkAt`: that folder). Rollback never writes below a symlink.
 */
export async function readStateNoFollow(
  fs: EngineFs,
  abs: string,
  options: ReadStateOptions,
): Promise<ReadState & { ancestors: AncestorState; linkAt?: string }> {
  try {
    return { ...(await readState(fs, abs, options)), ancestors: 'dirs' };
  } catch (e) {
    if (e instanceof LinkOnPathError) return { state: null, ancestors: 'link', linkAt: e.at ?? path.dirname(abs) };
    throw e;
  }
}
