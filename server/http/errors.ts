// The one place where error codes become HTTP statuses and error bodies (docs/api.md "Errors").
// Errors are told apart by their `code`, never by their message.
import type { ErrorBody, ErrorCode } from '../protocol.js';

const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  BAD_URI: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TURN_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  COMMAND_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  TURN_ACTIVE: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NO_SPACE: 507,
  WORKSPACE_NOT_FOUND: 404,
  WORKSPACE_REQUIRED: 400,
  WORKSPACE_REFUSED: 400,
  WORKSPACE_NOT_RECORDING: 503,
  WORKSPACE_LIMIT: 429,
  INTERNAL: 500,
};

/** An error raised by the HTTP layer itself (security checks, routing, validation). */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.details = details;
  }
}

export function statusOf(code: ErrorCode): number {
  return STATUS_OF[code];
}

function isKnownCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(STATUS_OF, code);
}

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
}

/**
 * Turns anything thrown into a status and an error body. Errors with a known API code (engine or
 * HTTP layer) keep their message and details; anything else (including Node system errors, whose
 * `code` is like `ENOENT`) is an INTERNAL error whose stack goes to the log, never to the client.
 */
export function errorAnswer(err: unknown, logError: (message: string) => void): ErrorAnswer {
  const candidate = err as { code?: unknown; message?: unknown; details?: unknown } | null;
  if (candidate && isKnownCode(candidate.code) && candidate.code !== 'INTERNAL') {
    const details = candidate.details && typeof candidate.details === 'object' ? candidate.details : {};
    const message = typeof candidate.message === 'string' ? candidate.message : candidate.code;
    return {
      status: STATUS_OF[candidate.code],
      body: { error: { ...(details as Record<string, unknown>), code: candidate.code, message } },
    };
  }
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  logError(`internal error: ${stack}`);
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
}
