// POST bodies: JSON only, at most 16 MiB, refused as soon as the limit is known to be crossed
// (from Content-Length, or while counting the stream), never after buffering it all.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function checkContentType(request: IncomingMessage): void {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json');
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError('PAYLOAD_TOO_LARGE', `the body exceeds ${limit} bytes`, { limit });
}

export function checkDeclaredLength(request: IncomingMessage, limit = MAX_BODY_BYTES): void {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}

export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        request.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    // A client that goes away mid-body is not a server failure: no INTERNAL, no stack in the log.
    const onCut = (): void => {
      cleanup();
      reject(new HttpError('BAD_REQUEST', 'the request body was cut short'));
    };
    const cleanup = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onCut);
      request.off('close', onCut);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onCut);
    request.on('close', onCut);
  });
}

/** An empty body is `{}`; anything that is not JSON is a 400. */
export function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim().length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError('BAD_REQUEST', 'the body is not valid JSON');
  }
}
