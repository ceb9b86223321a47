// A kept content written back to a path in steps, so that a rollback of many files can do each
// step for all of them at once. Replaced by rename: stage (temp file beside the path, written,
// verified, not yet flushed), flush (fsync, side by side with the others), place (rename).
// Written over in place (a file that may be, see paths/overwrite.ts): the content read and
// verified first, then place (written over the file), then flush. Creating files while fsyncs
// are in flight stalls on the filesystem's journal; in phases, nothing waits on it.
import type { Stats } from 'node:fs';
import { type ContentStore, IN_MEMORY_LIMIT, sha256, UnrestorableContentError } from './contents.js';
import type { EngineFs } from '../paths/fs.js';
import { type AtomicOptions, DestinationChangedError } from '../paths/atomic-write.js';
import { CutShortError, NotInPlaceError } from '../paths/overwrite.js';

export interface StagedFile {
  /** The content, when it was small enough to be verified in memory. */
  readonly bytes?: Buffer;
  /** Placed by writing over the file, then flushed; otherwise flushed, then placed by rename. */
  readonly inPlace?: boolean;
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

/**
 * The file a content is written over in place: its content and mode as planning saw them, and
 * `checked` when its content was not read again since (it changed too recently for its lstat to
 * tell a change): then the write reads it through the open file first.
 */
export interface WrittenOver {
  hash: string;
  mode: number;
  checked?: boolean;
}

/**
 * The content written over the file at `dest` in place, keeping its inode (paths/overwrite.ts);
 * the caller has named the file and both contents in the store first (db/overwrites.ts). A file
 * that may not be written in place is replaced by rename instead, flushed before it (`place`
 * does it all then). A write cut short (the disk full as the file grows, say) is mended at once
 * over the very file it was writing: the new content whole by rename, or else the old one back
 * in place, whose blocks the file holds already. Only when both fail is the file left part old,
 * part new, and the write's failure is the caller's to report (nothing is lost: both contents
 * are in the store, and the next open after a crash finishes it: rollback/overwrite-repair.ts).
 */
export function overwriteContent(
  fs: EngineFs,
  contents: ContentStore,
  hash: string,
  dest: string,
  mode: number,
  replaces: NonNullable<AtomicOptions['replaces']>,
  over: WrittenOver,
): StagedFile {
  // Read and verified before anything is written: a bad content never reaches the file.
  const data = contents.read(hash);
  const replace = (only: (now: Stats | undefined) => boolean) =>
    replaceContent(fs, contents, hash, dest, mode, data.length, only);
  const mend = async (cut: CutShortError) => {
    const { written } = cut;
    // Only the file that was being written, nothing put there since.
    const same = (now: Stats | undefined) => now !== undefined && now.ino === written.ino && now.dev === written.dev;
    try {
      await replace(same);
      return;
    } catch {
      // No room for a second copy, say: the old content back where it was.
    }
    try {
      await fs.overwrite(dest, contents.read(over.hash), over.mode, { replaces: same });
    } catch {
      // Left part old, part new.
    }
    throw cut.reason;
  };
  return {
    bytes: data,
    inPlace: true,
    place: async () => {
      // `checked`: the file's content was not read again since planning; it is, right before the write.
      const holds = over.checked ? (bytes: Buffer) => sha256(bytes) === over.hash : undefined;
      try {
        await fs.overwrite(dest, data, mode, { replaces, holds });
      } catch (e) {
        if (e instanceof NotInPlaceError) {
          if (holds && !holds(await fs.readSmallFile(dest, IN_MEMORY_LIMIT))) throw new DestinationChangedError(dest);
          return replace(replaces);
        }
        if (e instanceof CutShortError) return mend(e);
        throw e;
      }
    },
    flush: () => fs.fsyncFile(dest),
    abort: async () => undefined,
  };
}

/** The content written to a temp file beside `dest`, flushed, then renamed over it: one file, start to end. */
export async function replaceContent(
  fs: EngineFs,
  contents: ContentStore,
  hash: string,
  dest: string,
  mode: number,
  knownSize: number,
  replaces: AtomicOptions['replaces'],
): Promise<void> {
  const staged = await stageContent(fs, contents, hash, dest, mode, knownSize, replaces);
  await staged.flush().catch(async (e: unknown) => {
    await staged.abort();
    throw e;
  });
  await staged.place();
}
