// Request validation shared by the routes: every refusal is a 400 BAD_REQUEST that names the
// field, raised before the engine is called.
import { SESSION_ID_PATTERN, type Uri } from '../protocol.js';
import { HttpError } from './errors.js';

export type Fields = Record<string, unknown>;

function bad(message: string): HttpError {
  return new HttpError('BAD_REQUEST', message);
}

export function sessionIdFrom(value: unknown, field = 'sessionId'): string {
  if (typeof value !== 'string' || !SESSION_ID_PATTERN.test(value)) {
    throw bad(`${field} must be 1-200 characters of [A-Za-z0-9._:@-]`);
  }
  return value;
}

export function objectBody(body: unknown): Fields {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw bad('the body must be a JSON object');
  }
  return body as Fields;
}

export function requiredString(fields: Fields, key: string, { allowEmpty = true } = {}): string {
  const value = fields[key];
  if (typeof value !== 'string' || (!allowEmpty && value.length === 0)) {
    throw bad(`${key} must be a${allowEmpty ? '' : ' non-empty'} string`);
  }
  return value;
}

export function optionalString(fields: Fields, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw bad(`${key} must be a string`);
  return value;
}

export function optionalBoolean(fields: Fields, key: string): boolean | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw bad(`${key} must be true or false`);
  return value;
}

export function optionalUriList(fields: Fields, key: string): Uri[] | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw bad(`${key} must be an array of URI strings`);
  }
  return value as Uri[];
}

export function oneOf<T extends string>(fields: Fields, key: string, allowed: readonly T[]): T {
  const value = fields[key];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw bad(`${key} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** `?limit=`: a positive integer, absent when not given. */
/** An optional field of one of the allowed values; absent (or null) is undefined. */
export function optionalOneOf<T extends string>(fields: Fields, key: string, allowed: readonly T[]): T | undefined {
  return fields[key] === undefined || fields[key] === null ? undefined : oneOf(fields, key, allowed);
}

export function queryLimit(query: URLSearchParams, key = 'limit'): number | undefined {
  const raw = query.get(key);
  if (raw === null) return undefined;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) throw bad(`${key} must be a positive integer`);
  return Number(raw);
}

/** `?before=`: a finite non-negative number (a turn number or a timestamp), absent when not given. */
export function queryBefore(query: URLSearchParams): number | undefined {
  const raw = query.get('before');
  if (raw === null) return undefined;
  if (!/^[0-9]{1,16}(\.[0-9]+)?$/.test(raw)) throw bad('before must be a non-negative number');
  return Number(raw);
}

export function queryRequired(query: URLSearchParams, key: string): string {
  const raw = query.get(key);
  if (raw === null || raw.length === 0) throw bad(`query parameter ${key} is required`);
  return raw;
}
