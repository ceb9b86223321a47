// Path states (API.md `State`): what a path held at some moment, read from disk.
import path from 'node:path';
import type { SkipReason, State } from '../protocol.js';
import type { BlobStore } from './blobs.js';
import { type EngineFs, errnoCode } from './fs.js';

export interface ReadStateOptions {
  /** Keep the content as a blob (capture); otherwise only hash it. */
  keepBlob: boolean;
  maxFileSize: number;
  excluded: boolean;
  /** Hash a file only when its size is this one (a cheap "could it be the same content?"). */
  hashOnlyIfSize?: number;
  /** false: the blob need not survive a power loss (after-contents, read by diffs only). */
  durable?: boolean;
  /** The caller commits content that is not flushed yet (`unflushed`) instead of the blob being synced. */
  deferred?: boolean;
  /** Pins a hash while its blob has no entry row yet, so the sweep leaves it alone. */
  pin?: (hash: string) => void;
}

export interface ReadState {
  state: State;
  skipped?: SkipReason;
  /** The content's raw bytes, when it was stored and small enough to be read into memory. */
  bytes?: Buffer;
  /** With `deferred`: the blob is not flushed yet, so the caller commits `bytes`. */
  unflushed?: boolean;
}

export function modeOf(rawMode: number): number {
  return rawMode & 0o7777;
}

export async function readState(fs: EngineFs, blobs: BlobStore, abs: string, options: ReadStateOptions): Promise<ReadState> {
  const stats = await fs.lstatOrNull(abs);
  // An excluded path is never restored or deleted, so it stays skipped even while absent.
  if (!stats) return options.excluded ? { state: null, skipped: 'excluded' } : { state: null };
  if (stats.isSymbolicLink()) return { state: { type: 'symlink', target: await fs.readlink(abs) } };
  if (stats.isDirectory()) {
    return options.excluded ? { state: { type: 'dir', mode: modeOf(stats.mode) }, skipped: 'excluded' } : { state: { type: 'dir', mode: modeOf(stats.mode) } };
  }
  const mode = modeOf(stats.mode);
  if (!stats.isFile()) return { state: { type: 'file', hash: '', size: stats.size, mode }, skipped: 'unreadable' };
  if (options.excluded) return { state: { type: 'file', hash: '', size: stats.size, mode }, skipped: 'excluded' };
  if (stats.size > options.maxFileSize) return { state: { type: 'file', hash: '', size: stats.size, mode }, skipped: 'too-large' };
  if (options.hashOnlyIfSize !== undefined && stats.size !== options.hashOnlyIfSize) {
    return { state: { type: 'file', hash: '', size: stats.size, mode } };
  }
  try {
    if (options.keepBlob) {
      const durability = options.durable === false ? 'none' : options.deferred ? 'deferred' : 'sync';
      const { hash, size, bytes, unflushed } = await blobs.putFile(abs, stats.size, options.pin, durability);
      return { state: { type: 'file', hash, size, mode }, bytes, unflushed };
    }
    return { state: { type: 'file', hash: await blobs.hashFile(abs, stats.size), size: stats.size, mode } };
  } catch (e) {
    const code = errnoCode(e);
    // Only the file itself being unreadable is a skip; failing to write the blob store must stop the mutation.
    if ((code === 'EACCES' || code === 'EPERM') && (e as NodeJS.ErrnoException).path === abs) return { state: { type: 'file', hash: '', size: stats.size, mode }, skipped: 'unreadable' };
    throw e;
  }
}

export type AncestorState = 'dirs' | 'absent' | 'link';

/**
 * What lies between the root and a path: real directories only, something missing (or a file),
 * or a symlink. Rollback never writes below a symlink; below one, a recorded path is absent.
 */
export async function ancestorsOf(fs: EngineFs, rootReal: string, abs: string, cache = new Map<string, AncestorState>()): Promise<AncestorState> {
  return (await ancestorInfo(fs, rootReal, abs, cache)).state;
}

/** Like `ancestorsOf`, also naming the first ancestor that is not a real directory. */
export async function ancestorInfo(
  fs: EngineFs, rootReal: string, abs: string, cache = new Map<string, AncestorState>(),
): Promise<{ state: AncestorState; at?: string }> {
  const chain: string[] = [];
  for (let dir = path.dirname(abs); dir.length > rootReal.length && dir.startsWith(rootReal); dir = path.dirname(dir)) chain.unshift(dir);
  for (const dir of chain) {
    let known = cache.get(dir);
    if (!known) {
      const stats = await fs.lstatOrNull(dir);
      known = stats?.isSymbolicLink() ? 'link' : stats?.isDirectory() ? 'dirs' : 'absent';
      cache.set(dir, known);
    }
    if (known !== 'dirs') return { state: known, at: dir };
  }
  return { state: 'dirs' };
}

/** A path's state without following any symlink on the way: below a link or a gap it is absent. */
export async function readStateNoFollow(
  fs: EngineFs, blobs: BlobStore, rootReal: string, abs: string, options: ReadStateOptions, cache?: Map<string, AncestorState>,
): Promise<ReadState & { ancestors: AncestorState; linkAt?: string }> {
  const info = await ancestorInfo(fs, rootReal, abs, cache);
  if (info.state !== 'dirs') return { state: null, ancestors: info.state, linkAt: info.state === 'link' ? info.at : undefined };
  return { ...(await readState(fs, blobs, abs, options)), ancestors: 'dirs' };
}

/** Exact equality: content and mode for files, mode for directories, target for links. */
export function sameState(a: State, b: State): boolean {
  if (a === null || b === null) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === 'file' && b.type === 'file') return a.hash !== '' && a.hash === b.hash && a.mode === b.mode;
  if (a.type === 'dir' && b.type === 'dir') return a.mode === b.mode;
  if (a.type === 'symlink' && b.type === 'symlink') return a.target === b.target;
  return false;
}

/** Equality used for drift: a directory is a directory whatever its mode. */
export function sameForDrift(current: State, expected: State): boolean {
  if (current?.type === 'dir' && expected?.type === 'dir') return true;
  return sameState(current, expected);
}

export function stateHashes(...states: (State | undefined)[]): string[] {
  const hashes: string[] = [];
  for (const s of states) if (s && s.type === 'file' && s.hash) hashes.push(s.hash);
  return hashes;
}

export function parseState(json: string | null): State {
  return json ? (JSON.parse(json) as State) : null;
}

export function stringifyState(state: State | undefined): string | null {
  return state ? JSON.stringify(state) : null;
}
