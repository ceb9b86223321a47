// Recently decoded parts, so a read near another along the same chain decodes only what differs:
// a rollback reads a content to restore it and again for the turn's line counts; the next
// version of a file is a delta of one just read. An entry is keyed by a fingerprint of the
// stored bytes it was decoded from (the part's own and those of every base below it), so the
// cache can never hide a damaged or changed row, nor hand back bytes a decode would not.
import { createHash } from 'node:crypto';

/** Decoded bytes kept, at most. */
const CACHE_BYTES = 32 << 20;

/** The fingerprint of a level of a chain: its codec, its stored bytes and its base's fingerprint. */
export function fingerprint(codec: string, stored: Buffer, below: string | null): string {
  const hash = createHash('sha256').update(codec).update('\0').update(stored);
  if (below) hash.update(below);
  return hash.digest('base64');
}

export class DecodeCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  get(print: string): Buffer | undefined {
    const decoded = this.entries.get(print);
    if (decoded) {
      // Most recently used last: the oldest go first.
      this.entries.delete(print);
      this.entries.set(print, decoded);
    }
    return decoded;
  }

  set(print: string, decoded: Buffer): void {
    if (decoded.length > CACHE_BYTES / 8 || this.entries.has(print)) return;
    this.entries.set(print, decoded);
    this.bytes += decoded.length;
    for (const [key, old] of this.entries) {
      if (this.bytes <= CACHE_BYTES) break;
      this.entries.delete(key);
      this.bytes -= old.length;
    }
  }
}
