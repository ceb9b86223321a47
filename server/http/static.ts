// Serves the built console from dist/. A request target never reaches outside dist/: suspicious
// targets (dot segments, encoded separators, double encoding, NUL, `#`, backslashes) are refused
// before the filesystem is asked, and symlinks are resolved and checked against dist/'s real path.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { HttpError } from './errors.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface StaticFile {
  contentType: string;
  body: Buffer;
  isHtml: boolean;
}

function refuse(): HttpError {
  return new HttpError('BAD_REQUEST', 'this request target is not allowed');
}

/** The decoded segments of a safe path below dist/, or a 400 for anything that could escape it. */
export function safeSegments(rawPath: string): string[] {
  if (!rawPath.startsWith('/') || /[\\#\0]/.test(rawPath)) throw refuse();
  const segments = rawPath.slice(1).split('/');
  return segments.map((segment, index) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw refuse();
    }
    const isLast = index === segments.length - 1;
    if (decoded === '' && !isLast) throw refuse();
    // A `%` left after one decoding is a double encoding (`%252e`): nothing in dist/ needs it.
    if (decoded === '.' || decoded === '..' || /[/\\\0%#]/.test(decoded)) throw refuse();
    return decoded;
  });
}

async function insideDist(distReal: string, segments: string[]): Promise<string | null> {
  const candidate = path.join(distReal, ...segments);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (!real.startsWith(distReal + path.sep)) return null;
  const info = await stat(real);
  return info.isFile() ? real : null;
}

async function load(file: string): Promise<StaticFile> {
  const extension = path.extname(file).toLowerCase();
  return {
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    body: await readFile(file),
    isHtml: extension === '.html',
  };
}

/**
 * Finds the file for a GET of `rawPath` (no query). Client routes of the console (unknown paths
 * asked for as HTML) get index.html.
 */
export async function serveStatic(rawPath: string, acceptsHtml: boolean, distDir: string): Promise<StaticFile> {
  const segments = safeSegments(rawPath);
  if (segments[segments.length - 1] === '') segments[segments.length - 1] = 'index.html';
  let distReal: string;
  try {
    distReal = await realpath(distDir);
  } catch {
    throw new HttpError('NOT_FOUND', 'the console is not built: run npm run build');
  }
  const file = await insideDist(distReal, segments);
  if (file) return load(file);
  if (acceptsHtml) {
    const index = await insideDist(distReal, ['index.html']);
    if (index) return load(index);
    throw new HttpError('NOT_FOUND', 'the console is not built: run npm run build');
  }
  throw new HttpError('NOT_FOUND', 'no such file');
}

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (`q=0` refuses one), or null for the bytes as they are. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json)|image\/svg\+xml)/;
/** Compressed copies by encoding and content: a built console never changes while served. */
const compressedCache = new Map<string, Buffer>();

/** Text files are sent compressed when the client accepts it; images and fonts are compressed already. */
export function compressed(file: StaticFile, encoding: Encoding | null): { body: Buffer; encoding: Encoding | null } {
  if (!encoding || file.body.length < 1024 || !COMPRESSIBLE.test(file.contentType))
    return { body: file.body, encoding: null };
  const key = `${encoding}:${createHash('sha256').update(file.body).digest('hex')}`;
  let body = compressedCache.get(key);
  if (!body) {
    body =
      encoding === 'br'
        ? brotliCompressSync(file.body, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length },
          })
        : gzipSync(file.body, { level: 9 });
    compressedCache.set(key, body);
  }
  return { body, encoding };
}
