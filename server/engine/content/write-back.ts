// A kept content written back to a path in three steps, so that a rollback of many files can
// do each step for all of them at once: stage (temp file beside the path, written, verified,
// not yet flushed), flush (fsync, side by side with the others), place (rename). Creating files
// while fsyncs are in flight stalls on the filesystem's journal; in phases, nothing waits on it.
import { type ContentStore, IN_MEMORY_LIMIT, UnrestorableContentError } from './contents.js';
import type { EngineFs } from '../paths/fs.js';
import type { AtomicOptions } from '../paths/atomic-write.js';

export interface StagedFile {
  /** The content, when it was small enough to be verified in memory. */
  readonly bytes?: Buffer;
  flush(): Promise<void>;
  place(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Writes the content to a temp file beside `dest` with `mode`; only verified content is ever
 * placed. Small contents are verified in memory; larger ones are streamed and verified on the way.
 */
export async function stageContent(
  fs: EngineFs,
  contents: ContentStore,
  hash: string,
  dest: string,
  mode: number,
  knownSize?: number,
  replaces?: AtomicOptions['replaces'],
): Promise<StagedFile> {
  const small = knownSize !== undefined && knownSize <= IN_MEMORY_LIMIT;
  // Read (and verified) before the temp file exists, so a bad content leaves nothing behind.
  const data = small ? contents.read(hash) : null;
  if (!data && !contents.has(hash)) throw new UnrestorableContentError(hash, 'missing');
  const target = await fs.createAtomic(dest, mode, { durable: false, overlap: true, replaces });
  try {
    if (data) await target.write(data);
    else for await (const chunk of contents.chunks(hash)) await target.write(chunk);
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
