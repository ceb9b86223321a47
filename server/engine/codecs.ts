// How a content's parts are encoded in the store. Captures store parts raw (no compression on
// the agent's path); the packer re-encodes them later, off that path. Every decode is checked
// against the content's hash by the caller, so a codec bug or a damaged row can never yield
// wrong bytes, only an UNRESTORABLE content.
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';

export type Codec = 'raw' | 'deflate';

const deflateAsync = promisify(deflateRaw);

/** Level 1: most of the size win for a fraction of the time of the default level. */
const DEFLATE_LEVEL = 1;

/** Encodes a part in the thread pool (never on the main thread). */
export async function encodePart(codec: Codec, raw: Buffer): Promise<Buffer> {
  if (codec === 'raw') return raw;
  return deflateAsync(raw, { level: DEFLATE_LEVEL });
}

/** Decodes one part; throws on data that is not valid for its codec. */
export function decodePart(codec: string, data: Buffer): Buffer {
  switch (codec) {
    case 'raw': return data;
    case 'deflate': return inflateRawSync(data);
    default: throw new Error(`unknown codec ${codec}`);
  }
}
