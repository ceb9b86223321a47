// Agent routes (docs/api.md "Agent API"): turn lifecycle hooks and the controlled storage.
import { AGENT_ROLES, MUTATION_OPS } from '../../protocol.js';
import { HttpError } from '../errors.js';
import type {
  AgentBeforeMutateResponse,
  AgentExecEndResponse,
  AgentExecResponse,
  AgentInputResponse,
  AgentMessageResponse,
  AgentReadResponse,
  AgentTurnEndResponse,
  OkResponse,
  StepRef,
} from '../../protocol.js';
import type { RouteHandler } from '../types.js';
import {
  objectBody,
  oneOf,
  optionalBoolean,
  optionalString,
  queryRequired,
  requiredString,
  sessionIdFrom,
} from '../validate.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const OK: { body: OkResponse } = { body: { ok: true } };
/** fs/read answers at most this many bytes (docs/api.md); a larger file is TOO_LARGE. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

export const input: RouteHandler<AgentInputResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return {
    body: await engine.input({
      sessionId: sessionIdFrom(fields.sessionId),
      platform: requiredString(fields, 'platform', { allowEmpty: false }),
      sessionType: requiredString(fields, 'sessionType', { allowEmpty: false }),
      content: requiredString(fields, 'content'),
    }),
  };
};

export const message: RouteHandler<AgentMessageResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return {
    body: await engine.message({
      sessionId: sessionIdFrom(fields.sessionId),
      role: oneOf(fields, 'role', AGENT_ROLES),
      content: requiredString(fields, 'content'),
    }),
  };
};

export const turnEnd: RouteHandler<AgentTurnEndResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return { body: await engine.turnEnd({ sessionId: sessionIdFrom(fields.sessionId) }) };
};

export const exec: RouteHandler<AgentExecResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return {
    body: await engine.exec({
      sessionId: sessionIdFrom(fields.sessionId),
      tool: requiredString(fields, 'tool', { allowEmpty: false }),
      command: requiredString(fields, 'command'),
    }),
  };
};

export const execEnd: RouteHandler<AgentExecEndResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return {
    body: await engine.execEnd({
      sessionId: sessionIdFrom(fields.sessionId),
      execId: requiredString(fields, 'execId', { allowEmpty: false }),
    }),
  };
};

export const beforeMutate: RouteHandler<AgentBeforeMutateResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  return {
    body: await engine.beforeMutate({
      sessionId: sessionIdFrom(fields.sessionId),
      op: oneOf(fields, 'op', MUTATION_OPS),
      uri: requiredString(fields, 'uri'),
      to: optionalString(fields, 'to'),
      step: stepOf(fields),
    }),
  };
};

/** `stepId` (and `stepTitle`, the chat's tool line): the host's tool call a change belongs to. */
function stepOf(fields: Record<string, unknown>): StepRef | undefined {
  const id = optionalString(fields, 'stepId');
  const title = optionalString(fields, 'stepTitle');
  return id === undefined ? undefined : { id, ...(title ? { title } : {}) };
}

function decodeContent(content: string, encoding: 'utf8' | 'base64'): string | Uint8Array {
  if (encoding === 'utf8') return content;
  // Buffer.from silently skips characters that are not base64; a typo must not become a corrupt file.
  if (!BASE64.test(content)) throw new HttpError('BAD_REQUEST', 'content is not valid base64');
  return new Uint8Array(Buffer.from(content, 'base64'));
}

export const fsWrite: RouteHandler<OkResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  const sessionId = sessionIdFrom(fields.sessionId);
  const uri = requiredString(fields, 'uri');
  const content = requiredString(fields, 'content');
  const encoding = fields.encoding === undefined ? 'utf8' : oneOf(fields, 'encoding', ['utf8', 'base64'] as const);
  await engine.storage.writeFile(uri, decodeContent(content, encoding), {
    sessionId,
    force: optionalBoolean(fields, 'force'),
    step: stepOf(fields),
  });
  return OK;
};

export const fsDelete: RouteHandler<OkResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  const sessionId = sessionIdFrom(fields.sessionId);
  const uri = requiredString(fields, 'uri');
  const recursive = optionalBoolean(fields, 'recursive');
  await engine.storage.delete(uri, {
    sessionId,
    recursive,
    force: optionalBoolean(fields, 'force'),
    step: stepOf(fields),
  });
  return OK;
};

export const fsRename: RouteHandler<OkResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  const sessionId = sessionIdFrom(fields.sessionId);
  await engine.storage.rename(requiredString(fields, 'from'), requiredString(fields, 'to'), {
    sessionId,
    force: optionalBoolean(fields, 'force'),
    step: stepOf(fields),
  });
  return OK;
};

export const fsMove: RouteHandler<OkResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  const sessionId = sessionIdFrom(fields.sessionId);
  await engine.storage.move(requiredString(fields, 'from'), requiredString(fields, 'to'), {
    sessionId,
    force: optionalBoolean(fields, 'force'),
    step: stepOf(fields),
  });
  return OK;
};

export const fsMkdir: RouteHandler<OkResponse> = async ({ body }, { engine }) => {
  const fields = objectBody(body);
  const sessionId = sessionIdFrom(fields.sessionId);
  await engine.storage.mkdir(requiredString(fields, 'uri'), { sessionId, step: stepOf(fields) });
  return OK;
};

/** UTF-8 text without NUL travels as text; anything else as base64 (docs/api.md fs/read). */
function encodeContent(bytes: Uint8Array): { content: string; encoding: 'utf8' | 'base64' } {
  if (!bytes.includes(0)) {
    try {
      return { content: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding: 'utf8' };
    } catch {
      // not UTF-8: fall through to base64
    }
  }
  return {
    content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    encoding: 'base64',
  };
}

export const fsRead: RouteHandler<AgentReadResponse> = async ({ query }, { engine }) => {
  const uri = queryRequired(query, 'uri');
  const bytes = await engine.storage.readFile(uri, { maxBytes: MAX_READ_BYTES });
  return { body: { uri, ...encodeContent(bytes), size: bytes.byteLength } };
};
