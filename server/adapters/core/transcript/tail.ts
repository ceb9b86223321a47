// A file's whole lines, last first, read backwards in chunks up to a bound: a turn's lines are
// at the end of a transcript, and what lies further back than the bound is never read (a 2 GiB
// file costs the bound, not 2 GiB). A line longer than the bound is never taken whole.
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
export const TAIL_CHUNK_BYTES = 256 * 1024;

export interface TailRead {
  /** Bytes read from the file. */
  bytesRead: number;
  /** Whether the read stopped at the bound before the file's start. */
  cut: boolean;
}

/**
 * Calls `take` with each whole line of the first `size` bytes of `file`, last first, until it
 * answers true, the file's start, or `maxBytes` read. The first line of the file counts as whole;
 * a line cut by the bound is not passed on.
 */
export async function readLinesBackwards(
  file: FileHandle,
  size: number,
  maxBytes: number,
  take: (line: string) => boolean,
  chunkBytes = TAIL_CHUNK_BYTES,
): Promise<TailRead> {
  let position = size;
  let bytesRead = 0;
  // The start of a line whose beginning lies further back: kept as chunks, joined once whole.
  let carry: Buffer[] = [];
  while (position > 0 && bytesRead < maxBytes) {
    const length = Math.min(chunkBytes, position, maxBytes - bytesRead);
    const chunk = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead: n } = await file.read(chunk, got, length - got, position - length + got);
      if (n === 0) break;
      got += n;
    }
    if (got < length) return { bytesRead: bytesRead + got, cut: false }; // shrank under us: what was read stands
    position -= length;
    bytesRead += length;
    let end = length;
    for (
      let at = chunk.lastIndexOf(NEWLINE, end - 1);
      at !== -1;
      at = end > 0 ? chunk.lastIndexOf(NEWLINE, end - 1) : -1
    ) {
      const line = Buffer.concat([chunk.subarray(at + 1, end), ...carry]);
      carry = [];
      end = at;
      if (line.length > 0 && take(line.toString('utf8'))) return { bytesRead, cut: false };
    }
    if (end > 0) carry.unshift(chunk.subarray(0, end));
  }
  if (position === 0 && carry.length > 0) {
    if (take(Buffer.concat(carry).toString('utf8'))) return { bytesRead, cut: false };
  }
  return { bytesRead, cut: position > 0 };
}
