// Console routes (docs/api.md "Console API"): thin mappings of the engine's library calls.
import type {
  CommandResponse,
  Comparison,
  DiffResponse,
  DiffsResponse,
  HealthResponse,
  PinResponse,
  PinsResponse,
  ManifestResponse,
  MessagesResponse,
  OkResponse,
  OnConflict,
  Plan,
  StepsResponse,
  RollbackResult,
  SessionsResponse,
  SetBudgetResponse,
  StoreStats,
  TurnsResponse,
} from '../../protocol.js';
import { DIFFS_PER_REQUEST } from '../../protocol.js';
import { HttpError } from '../errors.js';
import type { RouteHandler } from '../types.js';
import { previewLinked, rollbackLinked } from './linked-rollback.js';
import {
  objectBody,
  optionalBoolean,
  optionalOneOf,
  optionalString,
  optionalUriList,
  queryBefore,
  queryLimit,
  queryRequired,
  requiredString,
  sessionIdFrom,
} from '../validate.js';

export const health: RouteHandler<HealthResponse> = (_request, { version }) => ({ body: { ok: true, version } });

export const storeStats: RouteHandler<StoreStats> = (_request, { engine }) => ({ body: engine.storeStats() });

/** `{bytes}`: the workspace's own store budget, a positive whole number of bytes, or null for the default. */
export const setBudget: RouteHandler<SetBudgetResponse> = ({ body }, { engine }) => {
  const { bytes } = objectBody(body);
  if (bytes !== null && !(typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes > 0))
    throw new HttpError('BAD_REQUEST', 'bytes must be a positive whole number of bytes, or null for the default');
  return { body: { budget: engine.setStoreBudget(bytes) } };
};

/**
 * `?turns=<limit>` also carries the newest session's first page of turns, so the console's
 * first paint needs one round trip less.
 */
export const listSessions: RouteHandler<SessionsResponse> = ({ query }, { engine }) => {
  const sessions = engine.listSessions();
  const limit = query.has('turns') ? queryLimit(query, 'turns') : undefined;
  if (limit === undefined || sessions.length === 0) return { body: { sessions } };
  const { sessionId } = sessions[0];
  return { body: { sessions, firstTurns: { sessionId, turns: engine.listTurns(sessionId, { limit }) } } };
};

/** `?q=` narrows to the turns whose prompt or a changed path holds the text (any case). */
export const listTurns: RouteHandler<TurnsResponse> = ({ params, query }, { engine }) => {
  const sessionId = sessionIdFrom(params.sessionId);
  const limit = queryLimit(query);
  const before = queryBefore(query);
  const text = query.get('q');
  if (text) return { body: { turns: engine.searchTurns(sessionId, text, { limit, before }) } };
  return { body: { turns: engine.listTurns(sessionId, { limit, before }) } };
};

export const listMessages: RouteHandler<MessagesResponse> = ({ params, query }, { engine }) => {
  const sessionId = sessionIdFrom(params.sessionId);
  const limit = queryLimit(query);
  const before = queryBefore(query);
  const turnId = query.get('turnId') ?? undefined;
  return { body: { messages: engine.messages(sessionId, { turnId, limit, before }) } };
};

export const getCommand: RouteHandler<CommandResponse> = ({ params }, { engine }) => ({
  body: { command: engine.command(params.turnId, params.execId) },
});

export const getManifest: RouteHandler<ManifestResponse> = ({ params }, { engine }) => ({
  body: engine.getManifest(params.turnId),
});

export const getDiff: RouteHandler<DiffResponse> = async ({ params, query }, { engine }) => ({
  body: await engine.diff(params.turnId, queryRequired(query, 'uri')),
});

/** A big turn's diff in a few round trips instead of one per path (`turnback diff`). */
export const getDiffs: RouteHandler<DiffsResponse> = async ({ params, query }, { engine }) => {
  const uris = query.getAll('uri');
  if (uris.length === 0 || uris.some((uri) => uri.length === 0))
    throw new HttpError('BAD_REQUEST', 'query parameter uri is required (one or more)');
  if (uris.length > DIFFS_PER_REQUEST)
    throw new HttpError('BAD_REQUEST', `at most ${DIFFS_PER_REQUEST} uri parameters in one request`);
  return { body: { diffs: await engine.diffs(params.turnId, uris) } };
};

export const listPins: RouteHandler<PinsResponse> = (_request, { engine }) => ({ body: { pins: engine.pins() } });

export const createPin: RouteHandler<PinResponse> = async ({ body }, { engine }) => {
  const name = optionalString(objectBody(body), 'name');
  return { body: { pin: await engine.pin({ name }) } };
};

export const deletePin: RouteHandler<OkResponse> = async ({ params }, { engine }) => {
  await engine.unpin(params.turnId);
  return { body: { ok: true } };
};

export const compare: RouteHandler<Comparison> = ({ query }, { engine }) => ({
  body: engine.compare(queryRequired(query, 'from'), queryRequired(query, 'to')),
});

export const compareDiff: RouteHandler<DiffResponse> = async ({ query }, { engine }) => ({
  body: await engine.compareDiff(queryRequired(query, 'from'), queryRequired(query, 'to'), queryRequired(query, 'uri')),
});

export const getSteps: RouteHandler<StepsResponse> = ({ params }, { engine }) => ({
  body: { steps: engine.steps(params.turnId) },
});

export const previewTurn: RouteHandler<Plan> = async ({ params, body }, deps) => {
  const fields = objectBody(body);
  const uris = optionalUriList(fields, 'uris');
  const withChat = optionalBoolean(fields, 'withChat');
  const onConflict = onConflictOf(fields);
  const steps = optionalStepList(fields);
  // A whole turn's plan lists its linked turns' too (Turn.linked), unless onlyHere.
  if (!uris && !withChat && !steps && optionalBoolean(fields, 'onlyHere') !== true)
    return { body: await previewLinked(deps.engine, params.turnId, { onConflict }, deps) };
  return { body: await deps.engine.preview(params.turnId, { uris, withChat, onConflict, steps }) };
};

export const rollbackTurn: RouteHandler<RollbackResult> = async ({ params, body }, deps) => {
  const fields = objectBody(body);
  const uris = optionalUriList(fields, 'uris');
  const force = optionalBoolean(fields, 'force');
  const onConflict = onConflictOf(fields);
  const steps = optionalStepList(fields);
  // An undo from the agent's chat: the asking turn it is recorded in, and its tool call.
  const inTurn = optionalString(fields, 'inTurn');
  const stepId = optionalString(fields, 'stepId');
  const step = stepId === undefined ? undefined : { id: stepId, title: optionalString(fields, 'stepTitle') };
  // A whole turn is undone with its linked turns (Turn.linked), unless onlyHere.
  if (!uris && !steps && inTurn === undefined && optionalBoolean(fields, 'onlyHere') !== true)
    return { body: await rollbackLinked(deps.engine, params.turnId, { force, onConflict }, deps) };
  return { body: await deps.engine.rollback(params.turnId, { uris, force, onConflict, steps, inTurn, step }) };
};

export const rollbackTurnWithChat: RouteHandler<RollbackResult> = async ({ params, body }, { engine }) => {
  const fields = objectBody(body);
  const force = optionalBoolean(fields, 'force');
  const onConflict = onConflictOf(fields);
  return { body: await engine.rollbackWithChat(params.turnId, { force, onConflict }) };
};

export const previewRewind: RouteHandler<Plan> = async ({ params, body }, { engine }) => {
  const sessionId = sessionIdFrom(params.sessionId);
  const fields = objectBody(body);
  const toTurnId = requiredString(fields, 'toTurnId', { allowEmpty: false });
  const withChat = optionalBoolean(fields, 'withChat');
  const onConflict = onConflictOf(fields);
  return { body: await engine.previewRewind(sessionId, { toTurnId, withChat, onConflict }) };
};

export const rewind: RouteHandler<RollbackResult> = async ({ params, body }, { engine }) => {
  const sessionId = sessionIdFrom(params.sessionId);
  const fields = objectBody(body);
  const toTurnId = requiredString(fields, 'toTurnId', { allowEmpty: false });
  const withChat = optionalBoolean(fields, 'withChat');
  const force = optionalBoolean(fields, 'force');
  const onConflict = onConflictOf(fields);
  return { body: await engine.rewind(sessionId, { toTurnId, withChat, force, onConflict }) };
};

const ON_CONFLICT: readonly OnConflict[] = ['refuse', 'keep-both'];

/** `steps`: step indexes (1, 2, …), at most one list of positive integers. */
function optionalStepList(fields: Record<string, unknown>): number[] | undefined {
  const value = fields.steps;
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > 10_000 ||
    !value.every((n) => Number.isInteger(n) && n >= 1)
  ) {
    throw new HttpError('BAD_REQUEST', 'steps must be a non-empty list of step numbers (1, 2, …)');
  }
  return value as number[];
}
const onConflictOf = (fields: Record<string, unknown>): OnConflict | undefined =>
  optionalOneOf(fields, 'onConflict', ON_CONFLICT);

export const deleteSession: RouteHandler<OkResponse> = async ({ params }, { engine }) => {
  await engine.clearSession(sessionIdFrom(params.sessionId));
  return { body: { ok: true } };
};
