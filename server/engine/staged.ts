// A blob written back to a path in three steps, so that a rollback of many files can do each
// step for all of them at once: stage (temp file beside the path, written, verified, not yet
// flushed), flush (fsync, side by side with the others), place (rename). Creating files while
// fsyncs are in flight stalls on the filesystem's journal; in phases, nothing waits on it.
import { createHash } from 'node:crypto';
import { BlobMismatchError, type BlobStore, IN_MEMORY_LIMIT } from './blobs.js';
import type { EngineFs } from './fs.js';

export interface StagedFile {
  /** The content, when it was small enough to be verified in memory. */
  readonly bytes?: Buffer;
  flush(): Promise<void>;
  place(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Writes the blob to a temp file beside `dest` with `mode`; only verified content is ever
 * placed. Small contents are verified in memory; larger ones are streamed and hashed on the way.
 */
export async function stageBlob(fs: EngineFs, blobs: BlobStore, hash: string, dest: string, mode: number, knownSize?: number): Promise<StagedFile> {
  const small = (knownSize !== undefined && knownSize <= IN_MEMORY_LIMIT) || blobs.isPending(hash);
  // Read (and verified) before the temp file exists, so a bad blob leaves nothing behind.
  const data = small ? await blobs.read(hash, true) : null;
  if (!data && !(await blobs.has(hash))) throw new BlobMismatchError(hash, 'missing');
  const target = await fs.createAtomic(dest, mode, { durable: false });
  try {
    if (data) {
      await target.write(data);
    } else {
      const hasher = createHash('sha256');
      for await (const chunk of blobs.chunksOf(hash)) {
        hasher.update(chunk);
        await target.write(chunk);
      }
      if (hasher.digest('hex') !== hash) throw new BlobMismatchError(hash, 'mismatch');
    }
    await target.prepare();
  } catch (e) {
    await target.abort();
    throw e;
  }
  return {
    bytes: data ?? undefined,
    flush: () => fs.fsyncFile(target.temp),
    place: () => target.commit(),
    abort: () => target.abort(),
  };
}
