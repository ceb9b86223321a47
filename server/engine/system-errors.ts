// A system error that says what is wrong is never an INTERNAL (docs/api.md "Errors"): out of space
// is NO_SPACE, a name too long is BAD_URI, a path the process may not touch is FORBIDDEN. The
// engine's public calls pass what they throw through here, naming the path by its URI.
import { BadUriError, EngineError, FileNotFoundError } from './errors.js';

export class NoSpaceError extends EngineError {
  constructor(system: string, uri?: string) {
    super('NO_SPACE', `no space left on the device${uri ? ` (writing ${uri})` : ''}`, {
      system,
      ...(uri ? { uri } : {}),
    });
  }
}

export class ForbiddenError extends EngineError {
  constructor(system: string, uri?: string) {
    super('FORBIDDEN', `${uri ?? 'a path'} may not be changed or read by turnback (${system})`, {
      system,
      ...(uri ? { uri } : {}),
    });
  }
}

const NO_SPACE = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** And every SQLITE_READONLY* code (checked by prefix below). */
const FORBIDDEN = new Set(['EACCES', 'EPERM', 'EROFS']);

/** The coded form of a system error (or the error itself when it has none to take). */
export function codedError(e: unknown, uriOf: (path: string) => string | undefined): unknown {
  if (e instanceof EngineError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  const path = (e as NodeJS.ErrnoException).path;
  const uri = typeof path === 'string' ? uriOf(path) : undefined;
  if (NO_SPACE.has(code)) return withCause(new NoSpaceError(code.replace(/^SQLITE_FULL$/, 'ENOSPC'), uri), e);
  if (code === 'ENAMETOOLONG')
    return withCause(
      new BadUriError('a name in the path is too long for the filesystem', { system: code, ...(uri ? { uri } : {}) }),
      e,
    );
  if (FORBIDDEN.has(code) || code.startsWith('SQLITE_READONLY')) return withCause(new ForbiddenError(code, uri), e);
  if (code === 'ENOENT' && uri) return withCause(new FileNotFoundError(uri), e);
  // A FIFO, socket or device swapped in for a file between its lstat and its open (file-read.ts).
  if (code === 'EFTYPE')
    return withCause(
      new BadUriError('the path changed into a special file while the operation ran; nothing was read from it', {
        system: code,
        ...(uri ? { uri } : {}),
      }),
      e,
    );
  return e;
}

function withCause<T extends Error>(coded: T, cause: unknown): T {
  (coded as { cause?: unknown }).cause = cause;
  return coded;
}

/**
 * The engine as its hosts see it: every call's system errors coded (above). One place, so no
 * operation can forget it; `storage` is wrapped the same way.
 *
 * A Proxy rather than a written-out wrapper: the engine's surface is some forty calls (and
 * `storage`'s own), and a wrapper listing them would let a new call slip past uncoded. Each
 * wrapped function is made once per key and kept, so a host sees stable identities.
 */
export function withCodedErrors<T extends object>(target: T, uriOf: (path: string) => string | undefined): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(obj, key) {
      const value: unknown = Reflect.get(obj, key, obj);
      if (wrapped.has(key)) return wrapped.get(key);
      let answer: unknown;
      if (typeof value === 'function') {
        answer = (...args: unknown[]) => {
          try {
            const out: unknown = (value as (...a: unknown[]) => unknown).apply(obj, args);
            return out instanceof Promise
              ? out.catch((e: unknown) => {
                  throw codedError(e, uriOf);
                })
              : out;
          } catch (e) {
            throw codedError(e, uriOf);
          }
        };
      } else if (key === 'storage' && value && typeof value === 'object') {
        answer = withCodedErrors(value, uriOf);
      } else {
        return value;
      }
      wrapped.set(key, answer);
      return answer;
    },
  });
}
