// How a content's parts are encoded in the store. Captures store parts raw (no compression on
// the agent's path); the packer re-encodes them later, off that path, in the thread pool:
//   brotli      a whole part (a keyframe);
//   zstd-delta  a part against the same part of its base content, which zstd takes as its
//               dictionary (what `zstd --patch-from` does): a new version of a file costs
//               about what changed;
//   deflate     whole parts of stores packed before deltas (read only; the packer re-encodes them).
// Chosen by measurement on the commander.js history (bench item 10, 827 contents, 16.8 MB): the
// deltas take 212 KB with zstd against 291 KB with fossil-delta + brotli, the whole store of
// contents 0.33 MB with zstd against 2.6 MB with deflate using the base as its dictionary
// (deflate's window is 32 KiB); zstd also decodes a level 15× faster than fossil-delta's
// JavaScript. Every decode is checked against the content's hash by the caller,
// so a codec bug or a damaged row can never yield wrong bytes, only an UNRESTORABLE content.
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants, inflateRawSync } from 'node:zlib';

export type Codec = 'raw' | 'deflate' | 'brotli' | 'zstd-delta';

interface Zstd {
  Encoder: new (level: number, dictionary?: Buffer) => { encode(data: Buffer): Promise<Buffer> };
  Decoder: new (dictionary?: Buffer) => { decodeSync(data: Buffer): Buffer };
}

/**
 * zstd is a native addon with prebuilt binaries for the usual platforms. Where it does not
 * load, the packer stores keyframes only, and a delta written elsewhere reads as UNRESTORABLE.
 */
const zstd: Zstd | null = (() => {
  try {
    return createRequire(import.meta.url)('@toondepauw/node-zstd') as Zstd;
  } catch {
    return null;
  }
})();

export const deltasAvailable = zstd !== null;

/**
 * Parts (and bases) up to this size get the strongest settings: brotli 11 is 9% smaller than
 * brotli 5 on the history's first versions but 30× slower, zstd 19 6% smaller than zstd 9 at
 * 6× the time.
 * Larger parts get the fast settings, so packing a 50 MB file costs seconds, not minutes.
 */
const SMALL_PART = 128 * 1024;

const brotliAsync = promisify(brotliCompress);

/** A keyframe: the part alone, brotli-compressed in the thread pool. */
export function encodeWhole(raw: Buffer): Promise<Buffer> {
  return brotliAsync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: raw.length <= SMALL_PART ? 11 : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** The part against the base's part (its zstd dictionary), in the thread pool; null without zstd. */
export async function encodeDelta(raw: Buffer, base: Buffer): Promise<Buffer | null> {
  if (!zstd) return null;
  const level = Math.max(raw.length, base.length) <= SMALL_PART ? 19 : 9;
  return new zstd.Encoder(level, base.length > 0 ? base : undefined).encode(raw);
}

/** Decodes one part (`base`: the base content's decoded part, for a delta); throws on data that is not valid for its codec. */
export function decodePart(codec: string, data: Buffer, base?: Buffer): Buffer {
  switch (codec) {
    case 'raw':
      return data;
    case 'brotli':
      return brotliDecompressSync(data);
    case 'deflate':
      return inflateRawSync(data);
    case 'zstd-delta': {
      if (!zstd) throw new Error('this build has no zstd: a delta cannot be decoded here');
      if (!base) throw new Error('a delta needs its base');
      return new zstd.Decoder(base.length > 0 ? base : undefined).decodeSync(data);
    }
    default:
      throw new Error(`unknown codec ${codec}`);
  }
}
