// Storage URIs: `<root>:/<posix path>`, canonical only (docs/api.md "Storage URIs").
// Parsing is pure: it refuses every non-canonical form before anything is touched.
import { BadUriError } from '../errors.js';

export interface ParsedUri {
  root: string;
  /** Segments below the root; empty for the root itself (`<root>:/`). */
  segments: string[];
}

const ROOT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function parseUri(uri: unknown): ParsedUri {
  if (typeof uri !== 'string' || uri.length === 0) throw new BadUriError('a URI must be a non-empty string', { uri });
  if (uri.includes('\0')) throw new BadUriError('a URI must not contain NUL', { uri });
  if (uri.includes('\\')) throw new BadUriError('a URI must not contain a backslash', { uri });
  const colon = uri.indexOf(':/');
  if (colon <= 0) throw new BadUriError('a URI has the form <root>:/<path>', { uri });
  const root = uri.slice(0, colon);
  if (!ROOT_NAME.test(root)) throw new BadUriError(`bad root name ${JSON.stringify(root)}`, { uri });
  const rest = uri.slice(colon + 2);
  if (rest === '') return { root, segments: [] };
  const segments = rest.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadUriError('a URI must be canonical: no empty, "." or ".." segments and no trailing "/"', { uri });
    }
  }
  return { root, segments };
}

export function formatUri(root: string, segments: readonly string[]): string {
  return `${root}:/${segments.join('/')}`;
}

export function parentUri(uri: string): string | null {
  const { root, segments } = parseUri(uri);
  if (segments.length === 0) return null;
  return formatUri(root, segments.slice(0, -1));
}

export function childUri(uri: string, name: string): string {
  return uri.endsWith(':/') ? uri + name : `${uri}/${name}`;
}

/** True when `uri` is `ancestor` itself or lies below it. */
export function isSameOrBelow(uri: string, ancestor: string): boolean {
  if (uri === ancestor) return true;
  const prefix = ancestor.endsWith(':/') ? ancestor : `${ancestor}/`;
  return uri.startsWith(prefix);
}

/**
 * True when `uri` lies strictly below one of `dirs` (a folder a scan could not list): its
 * ancestors looked up, so the cost follows its depth, not how many folders there are.
 */
export function isBelowAny(uri: string, dirs: ReadonlySet<string>): boolean {
  if (dirs.size === 0) return false;
  const colon = uri.indexOf(':/');
  if (colon <= 0) return false;
  const top = colon + 2;
  for (let cut = uri.lastIndexOf('/'); cut >= top; cut = uri.lastIndexOf('/', cut - 1)) {
    if (dirs.has(uri.slice(0, cut))) return true;
  }
  return uri.length > top && dirs.has(uri.slice(0, top));
}

export function uriDepth(uri: string): number {
  return parseUri(uri).segments.length;
}

export function rootOf(uri: string): string {
  const colon = uri.indexOf(':/');
  return colon > 0 ? uri.slice(0, colon) : '';
}
