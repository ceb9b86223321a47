// Reads one turn from the transcript a host names, safely: only a regular file inside one of
// the host's own transcript folders (compared by real path, so neither `/etc/shadow` nor a
// symlink out of the folder is opened), opened without blocking (a FIFO cannot stall it), read
// backwards no further than a bound, a few reads at a time (ReadQueue).
import { constants, realpathSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, normalize } from 'node:path';
import type { TranscriptItem } from '../chat.js';
import type { HostTranscripts } from '../host.js';
import { relativeInside } from '../paths.js';
import { ReadQueue } from './queue.js';
import { readLinesBackwards } from './tail.js';

/** A turn whose prompt lies further back than this gets what was found within it. */
export const MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;
/** Reads at once, server-wide: the machine has few cores and the reads are the turn ends' slow part. */
const READS_AT_ONCE = 2;
const queue = new ReadQueue(READS_AT_ONCE);

export interface TranscriptRead {
  items: TranscriptItem[];
  /** The file's size and mtime when read: the bytes read end there (lines appended later are not read). */
  size: number;
  mtimeMs: number;
  bytesRead: number;
  /** The lines read hold the turn's end as the host writes it (TurnCollector.ended; true when it cannot tell). */
  ended: boolean;
}

export interface TranscriptPlace {
  home: string;
  env: NodeJS.ProcessEnv;
}

const realOrNull = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/** The real path of `path` when it lies inside one of the host's folders, else null (never opened then). */
export function allowedTranscript(transcripts: HostTranscripts, path: string, place: TranscriptPlace): string | null {
  if (!isAbsolute(path)) return null;
  const real = realOrNull(path);
  if (real === null) return null;
  for (const folder of transcripts.folders(place.home, place.env)) {
    const realFolder = realOrNull(folder);
    if (realFolder === null) continue;
    const inside = relativeInside(realFolder, real);
    if (inside !== null && inside !== '') return real;
  }
  return null;
}

/**
 * Whether `path`, not there yet, names a file inside one of the host's folders (Copilot CLI writes
 * a new session's log only after its first turn's end): worth looking at again, never opened until
 * it exists and allowedTranscript says so.
 */
export function awaitedTranscript(transcripts: HostTranscripts, path: string, place: TranscriptPlace): boolean {
  if (!isAbsolute(path) || normalize(path) !== path || realOrNull(path) !== null) return false;
  for (const folder of transcripts.folders(place.home, place.env)) {
    for (const form of [folder, realOrNull(folder)]) {
      const inside = form === null ? null : relativeInside(form, path);
      if (inside !== null && inside !== '') return true;
    }
  }
  return false;
}

/** The turn prompted by `prompt` (null: the last) of the transcript at `path`, or null when it is not to be read. */
export async function readTranscriptTurn(
  transcripts: HostTranscripts,
  path: string,
  prompt: string | null,
  place: TranscriptPlace,
): Promise<TranscriptRead | null> {
  const real = allowedTranscript(transcripts, path, place);
  if (real === null) return null;
  return queue.run(async () => {
    let file: FileHandle;
    try {
      file = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    } catch {
      return null;
    }
    try {
      const stats = await file.stat();
      if (!stats.isFile()) return null;
      const collector = transcripts.collector(prompt);
      const { bytesRead } = await readLinesBackwards(file, stats.size, MAX_TRANSCRIPT_BYTES, (line) =>
        collector.take(line),
      );
      return {
        items: collector.items(),
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        bytesRead,
        ended: collector.ended?.() ?? true,
      };
    } catch {
      return null;
    } finally {
      await file.close();
    }
  });
}

/** Whether the file at `path` may differ from what `read` read: hosts only append to transcripts. */
export async function changedSince(path: string, read: TranscriptRead): Promise<boolean> {
  try {
    // A stat, not an open: nothing there (a FIFO put in its place) can block it.
    const now = await stat(path);
    return now.size !== read.size || now.mtimeMs !== read.mtimeMs;
  } catch {
    return true; // the read that follows fails the same way and says so
  }
}
