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
  Encoder: new (
    level: number,
    dictionary?: Buffer,
  ) => {
    encode(data: Buffer): Promise<Buffer>;
    encodeSync(data: Buffer): Buffer;
  };
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
 * The levels, chosen so packing a turn costs less CPU than capturing it did (docs/design.md,
 * "Packing"). Measured per 10 KB source file on this machine: brotli 5 takes 0.36 ms (3,345 B),
 * brotli 11 10.9 ms (3,041 B): the capture of that file costs about 2 ms. A zstd delta against
 * its base takes 0.16 ms at level 6 (101 B), 0.50 ms at 9 (94 B), 0.84 ms at 19 (96 B): most of
 * it is loading the base as the dictionary, which grows with the level. Against brotli 11 and
 * zstd 19 (bench/pack-probe.ts, bench item 15): the commander.js history's
 * contents take 4% more (796 against 764 KiB), and packing a turn takes 0.44× the CPU its
 * capture took (1.2–1.6× before); a 10-file turn on W2, 0.9× (4–8× before).
 */
const WHOLE_QUALITY = 5;
const DELTA_LEVEL = 6;
/** A part this size or smaller is its own sample; of a larger one, SAMPLE_SLICES slices of this size together. */
const SAMPLE_BYTES = 64 * 1024;
const SAMPLE_SLICES = 4;
/** A sample zstd's fastest level shrinks by less than this is taken as incompressible (random, or compressed already). */
const COMPRESSIBLE = 0.9;

const brotliAsync = promisify(brotliCompress);
const sampler = zstd ? new zstd.Encoder(1) : null;

/**
 * Whether compression would pay on this part, from zstd's fastest level over a sample (0.05 ms
 * for 64 KiB, where brotli 5 takes 14 ms over a MiB of random bytes): build output and media,
 * which do not shrink, cost a sample, not a whole encoding. Without zstd, every part is tried.
 */
export function compresses(raw: Buffer): boolean {
  if (!sampler || raw.length === 0) return true;
  let sample = raw;
  if (raw.length > SAMPLE_BYTES) {
    const slice = SAMPLE_BYTES / SAMPLE_SLICES;
    const step = Math.floor((raw.length - slice) / (SAMPLE_SLICES - 1));
    sample = Buffer.concat(Array.from({ length: SAMPLE_SLICES }, (_, i) => raw.subarray(i * step, i * step + slice)));
  }
  return sampler.encodeSync(sample).length < sample.length * COMPRESSIBLE;
}

/** A keyframe: the part alone, brotli-compressed in the thread pool. */
export function encodeWhole(raw: Buffer): Promise<Buffer> {
  return brotliAsync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: WHOLE_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** The part against the base's part (its zstd dictionary), in the thread pool; null without zstd. */
export async function encodeDelta(raw: Buffer, base: Buffer): Promise<Buffer | null> {
  if (!zstd) return null;
  return new zstd.Encoder(DELTA_LEVEL, base.length > 0 ? base : undefined).encode(raw);
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
