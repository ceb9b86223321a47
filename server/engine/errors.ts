// Engine errors are classes with a `code` from docs/api.md; callers (and the HTTP layer) tell them
// apart by `code`, never by message text.
import type { ErrorCode, Uri } from '../protocol.js';

/** The wire's codes, and the engine's own that never reach it as such (opening a store). */
export type EngineErrorCode =
  ErrorCode | 'STORE_DAMAGED' | 'SCHEMA_TOO_NEW' | 'DATA_DIR_LOCKED' | 'DATA_DIR_NOT_PRIVATE' | 'ENGINE_CLOSED';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: EngineErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

export class BadRequestError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('BAD_REQUEST', message, details);
  }
}
export class BadUriError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('BAD_URI', message, details);
  }
}
export class TurnNotFoundError extends EngineError {
  constructor(turnId: string) {
    super('TURN_NOT_FOUND', `no turn ${JSON.stringify(turnId)}`, { turnId });
  }
}
export class SessionNotFoundError extends EngineError {
  constructor(sessionId: string) {
    super('SESSION_NOT_FOUND', `no session ${JSON.stringify(sessionId)}`, { sessionId });
  }
}
export class FileNotFoundError extends EngineError {
  constructor(uri: Uri) {
    super('FILE_NOT_FOUND', `no file at ${uri}`, { uri });
  }
}
export class CommandNotFoundError extends EngineError {
  constructor(turnId: string, execId: string) {
    super('COMMAND_NOT_FOUND', `no command ${JSON.stringify(execId)} in turn ${JSON.stringify(turnId)}`, {
      turnId,
      execId,
    });
  }
}
export class ConflictError extends EngineError {
  constructor(conflicts: Uri[]) {
    super('CONFLICT', `${conflicts.length} path(s) changed since the turn; pass force to overwrite`, { conflicts });
  }
}
export class TurnActiveError extends EngineError {
  constructor(sessionId: string) {
    super('TURN_ACTIVE', `session ${JSON.stringify(sessionId)} has an active agent turn; end it before rolling back`, {
      sessionId,
    });
  }
}

/**
 * A change whose original the engine cannot keep (a file over maxFileSize, a recursive delete
 * or move over its limits): refused, nothing changed, unless the caller says `force`.
 */
export class TooLargeError extends EngineError {
  constructor(
    uri: Uri,
    size: number,
    limit: number,
    what = 'file',
    /** The skip the change is recorded with when forced: the size limit's, or the store budget's. */
    readonly skip: 'too-large' | 'budget' = 'too-large',
  ) {
    super(
      'TOO_LARGE',
      `${uri}: the ${what} is too large to keep its original (${size} over ${limit}); pass force to change it anyway`,
      { uri, size, limit },
    );
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}

/** Another live engine (this process or another) holds the data dir. */
export class DataDirLockedError extends EngineError {
  constructor(dataDir: string, pid: number) {
    super('DATA_DIR_LOCKED', `the data dir ${dataDir} is in use by process ${pid}`, { dataDir, pid });
  }
}

/** The data dir (or a folder of it) is another user's, or others can write it or swap it: not opened. */
export class DataDirNotPrivateError extends EngineError {
  constructor(dir: string, reason: string) {
    super('DATA_DIR_NOT_PRIVATE', `the data dir ${dir} ${reason}`, { dataDir: dir, reason });
  }
}

/** The store's database fails its integrity check (or is not a database): it is not opened. */
export class StoreDamagedError extends EngineError {
  constructor(file: string, problem: string) {
    super(
      'STORE_DAMAGED',
      `the store ${file} is damaged (${problem}); move it aside to start a new one, or restore it from a backup`,
      { file },
    );
  }
}

/** The engine was closed; nothing more can be done with it. */
export class EngineClosedError extends EngineError {
  constructor() {
    super('ENGINE_CLOSED', 'the engine is closed');
  }
}

/**
 * A folder on the way to a path was a symlink (or was moved) when the operation ran, although
 * the path resolved to real directories just before: another process is swapping components.
 * Nothing was done through it; the agent fs API answers it as `BAD_URI`, a rollback as `SYMLINK`.
 */
export class LinkOnPathError extends EngineError {
  /** The path of the folder that was a link (for the engine's own checks; never sent). */
  readonly at: string | undefined;
  constructor(at?: string) {
    super(
      'BAD_URI',
      'a folder on the path changed into a symlink (or moved) while the operation ran; nothing was done through it',
    );
    this.at = at;
  }
}
