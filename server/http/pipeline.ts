// One request, start to end, in docs/api.md's order: Host → Origin → token → route (404) →
// method (405) → content type (415) → size (413) → JSON (400) → the operation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/api.js';
import { checkContentType, checkDeclaredLength, MAX_BODY_BYTES, parseJson, readBody } from './body.js';
import { agentEngine } from './agent-engine.js';
import { errorAnswer, HttpError } from './errors.js';
import { API_HEADERS, SECURITY_HEADERS } from './headers.js';
import { decodeSegments, matchRoute } from './router.js';
import { EVENTS_PATH } from './routes/index.js';
import { HELLO_PATH, helloAnswer } from './hello.js';
import { accessFor, checkHost, checkOrigin, checkToken, presentedToken, sameToken, type Tokens } from './security.js';
import { chooseEncoding, compressed, serveStatic } from './static.js';
import type { EngineLease, EngineSource } from './engine-source.js';
import { agentPlaceOf, isHostHookRoute, type HookPlaceReader } from './agent-place.js';
import { stopsRecording, Told } from './not-recorded.js';
import {
  forgetWorkspace,
  listWorkspaces,
  registerWorkspace,
  splitWorkspacePath,
  workspaceItemId,
  WORKSPACES_PATH,
} from './routes/workspaces.js';
import type { Route } from './types.js';
import { AGENT_NOTICES_PATH, agentNoticeSettings, setAgentNoticeSettings } from './routes/agent-notices.js';
import { PERSON_BUDGET_PATH, personBudgetBytes, type PersonBudgetControl } from './routes/person-budget.js';

export interface PipelineContext {
  port: number;
  tokens: Tokens;
  /** This run's random salt of the console's session key (hello.ts). */
  sessionSalt: string;
  /**
   * The request came over the service's Unix socket in the 0700 state dir: no browser reaches
   * it, so Host and Origin (DNS rebinding, other sites) are not checked; the token still is.
   */
  overSocket?: boolean;
  /** The route table: docs/api.md's routes and those the server's caller added. */
  routes: readonly Route[];
  /** Which engine a request addresses. */
  source: EngineSource;
  version: string;
  told: Told;
  /** How each host reads its raw hook events' session and folder, when the caller knows. */
  readHookPlace?: HookPlaceReader;
  distDir: string;
  maxBodyBytes?: number;
  logError: (message: string) => void;
  openEvents: (request: IncomingMessage, response: ServerResponse, workspaceId: string | undefined) => void;
  /** The person's budget over all the workspaces (the service's); absent: no such route. */
  personBudget?: PersonBudgetControl;
}

function sendJson(response: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...API_HEADERS,
    ...extra,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

const agentEngines = new WeakMap<Engine, Engine>();

/** The engine as a request holding the agent token sees it: sessions it opens are the agent's. */
function asAgent(engine: Engine): Engine {
  let agent = agentEngines.get(engine);
  if (!agent) {
    agent = agentEngine(engine);
    agentEngines.set(engine, agent);
  }
  return agent;
}

function methodNotAllowed(allowed: string[]): HttpError {
  return new HttpError('METHOD_NOT_ALLOWED', 'this route does not take this method', { allowed });
}

function splitTarget(target: string): { rawPath: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  return mark < 0
    ? { rawPath: target, query: new URLSearchParams() }
    : { rawPath: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

async function readJsonBody(request: IncomingMessage, ctx: PipelineContext): Promise<unknown> {
  const limit = ctx.maxBodyBytes ?? MAX_BODY_BYTES;
  checkContentType(request);
  checkDeclaredLength(request, limit);
  return parseJson(await readBody(request, limit));
}

async function handleApi(
  request: IncomingMessage,
  response: ServerResponse,
  rawPath: string,
  query: URLSearchParams,
  ctx: PipelineContext,
): Promise<void> {
  // The event streams (an EventSource cannot set headers) alone take `?token=`.
  const isEvents = rawPath === EVENTS_PATH || /^\/api\/workspaces\/[^/]+\/events$/.test(rawPath);
  // The handshake's first half needs no token: it is how a tab checks the service before sending one.
  if (rawPath === HELLO_PATH) {
    if ((request.method ?? 'GET') !== 'GET') throw methodNotAllowed(['GET']);
    return sendJson(response, 200, helloAnswer(query, ctx.tokens.console, ctx.port, ctx.sessionSalt));
  }
  const holder = checkToken(presentedToken(request.headers, query, isEvents), accessFor(rawPath), ctx.tokens);
  const method = request.method ?? 'GET';
  if (rawPath === WORKSPACES_PATH) {
    if (method === 'GET') return sendJson(response, 200, listWorkspaces(ctx.source));
    if (method === 'POST')
      return sendJson(response, 200, registerWorkspace(ctx.source, await readJsonBody(request, ctx)));
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (rawPath === AGENT_NOTICES_PATH) {
    if (method === 'GET') return sendJson(response, 200, agentNoticeSettings());
    if (method === 'POST') return sendJson(response, 200, setAgentNoticeSettings(await readJsonBody(request, ctx)));
    throw methodNotAllowed(['GET', 'POST']);
  }
  if (rawPath === PERSON_BUDGET_PATH && ctx.personBudget) {
    if (method === 'GET') return sendJson(response, 200, ctx.personBudget.status());
    if (method === 'POST')
      return sendJson(response, 200, await ctx.personBudget.set(personBudgetBytes(await readJsonBody(request, ctx))));
    throw methodNotAllowed(['GET', 'POST']);
  }
  const decoded = decodeSegments(rawPath);
  const itemId = workspaceItemId(decoded);
  if (itemId !== undefined) {
    if (method === 'DELETE') return sendJson(response, 200, await forgetWorkspace(ctx.source, itemId, query));
    throw methodNotAllowed(['DELETE']);
  }
  const { workspaceId, segments } = splitWorkspacePath(decoded);
  const path = `/${segments.join('/')}`;
  if (path === EVENTS_PATH) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    if (workspaceId !== undefined && !ctx.source.list().some((workspace) => workspace.id === workspaceId)) {
      throw new HttpError('WORKSPACE_NOT_FOUND', `no workspace ${JSON.stringify(workspaceId)}`);
    }
    ctx.openEvents(request, response, workspaceId);
    return;
  }
  // Agent routes keep their unprefixed URIs: a session's workspace comes from its events.
  const isAgent = path.startsWith('/api/agent/');
  const match =
    workspaceId !== undefined && isAgent ? { kind: 'not-found' as const } : matchRoute(ctx.routes, method, segments);
  if (match.kind === 'not-found') throw new HttpError('NOT_FOUND', 'no such route');
  if (match.kind === 'method-not-allowed') throw methodNotAllowed(match.allowed);
  const body = method === 'POST' ? await readJsonBody(request, ctx) : {};
  const call = { params: match.params, query, body };
  if (match.route.pattern === '/api/health') {
    const answer = await match.route.handler(call, { engine: undefined as never, version: ctx.version });
    return sendJson(response, answer.status ?? 200, answer.body);
  }
  const place = isAgent ? agentPlaceOf(match.route.pattern, match.params, body, query, ctx.readHookPlace) : undefined;
  const hostHook = isHostHookRoute(match.route.pattern);
  let target: EngineLease | undefined;
  const others: EngineLease[] = [];
  try {
    target = place ? await ctx.source.agentEngine(place) : await ctx.source.consoleEngine(workspaceId);
    const engine = holder === 'agent' ? asAgent(target.engine) : target.engine;
    const otherEngine = async (id: string) => {
      const lease = await ctx.source.consoleEngine(id);
      return { engine: holder === 'agent' ? asAgent(lease.engine) : lease.engine, release: lease.release };
    };
    const here = target.workspaceId;
    const sessionKey = place?.sessionKey;
    const sessionEngines =
      hostHook && sessionKey !== undefined && ctx.source.sessionEngines
        ? async () => {
            const leases = await ctx.source.sessionEngines!(sessionKey, here);
            others.push(...leases);
            return leases.map((lease) => (holder === 'agent' ? asAgent(lease.engine) : lease.engine));
          }
        : undefined;
    const answer = await match.route.handler(call, { engine, version: ctx.version, otherEngine, sessionEngines });
    if (isAgent) ctx.source.noteSuccess?.(target.workspaceId);
    sendJson(response, answer.status ?? 200, answer.body);
  } catch (error) {
    if (target && isAgent) ctx.source.noteFailure?.(target.workspaceId, error);
    // A host's hook is answered what to tell the person, not an error it would only log.
    if (hostHook && stopsRecording(error)) return sendJson(response, 200, ctx.told.answer(place?.sessionKey, error));
    throw error;
  } finally {
    target?.release?.();
    for (const lease of others) lease.release?.();
  }
}

/** A page or asset: `headers` after the type and length; a HEAD gets the headers alone. */
function sendFile(
  response: ServerResponse,
  method: string,
  status: number,
  contentType: string,
  body: Buffer,
  headers: Record<string, string>,
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(body.length),
    ...headers,
  });
  response.end(method === 'HEAD' ? undefined : body);
}

async function handlePage(
  request: IncomingMessage,
  response: ServerResponse,
  rawPath: string,
  query: URLSearchParams,
  ctx: PipelineContext,
): Promise<void> {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(['GET', 'HEAD']);
  const acceptsHtml = (request.headers.accept ?? '').includes('text/html');
  // The printed URL's `?token=` is read by the page itself (sessionStorage, then a Bearer
  // header); the server only tells a wrong one at once, with the page, so it can say so.
  const pageToken = query.get('token');
  if (rawPath === '/' && pageToken !== null && !sameToken(pageToken, ctx.tokens.console)) {
    const page = acceptsHtml ? await serveStatic('/', true, ctx.distDir).catch(() => null) : null;
    if (!page) throw new HttpError('UNAUTHORIZED', 'wrong console token');
    sendFile(response, method, 401, page.contentType, page.body, { 'Cache-Control': 'no-store' });
    return;
  }
  const file = await serveStatic(rawPath, acceptsHtml, ctx.distDir);
  const sent = compressed(file, chooseEncoding(request.headers['accept-encoding']));
  sendFile(response, method, 200, file.contentType, sent.body, {
    ...(sent.encoding ? { 'Content-Encoding': sent.encoding } : {}),
    Vary: 'Accept-Encoding',
    // Vite names assets by content hash: they never change under the same name.
    'Cache-Control':
      rawPath.startsWith('/assets/') && !file.isHtml ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
}

/** What a refused body may still send after the answer before the connection is cut. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
const DRAIN_LIMIT_MS = 5_000;

/**
 * A refused body is answered before it is read to its end. The rest is then drained, within a
 * bound, rather than the socket closed at once: closing with unread data resets the connection,
 * and the client could lose the answer it has not read yet.
 */
function drainAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.on('finish', () => {
    if (request.complete) return;
    let drained = 0;
    const cut = setTimeout(() => request.socket.destroy(), DRAIN_LIMIT_MS);
    cut.unref();
    request.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) request.socket.destroy();
    });
    request.on('end', () => clearTimeout(cut));
    request.on('close', () => clearTimeout(cut));
    request.resume();
  });
}

function sendError(request: IncomingMessage, response: ServerResponse, err: unknown, ctx: PipelineContext): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const { status, body } = errorAnswer(err, ctx.logError);
  const extra: Record<string, string> = {};
  if (body.error.code === 'METHOD_NOT_ALLOWED' && Array.isArray(body.error.allowed)) {
    extra.Allow = (body.error.allowed as string[]).join(', ');
  }
  if (body.error.code === 'PAYLOAD_TOO_LARGE') drainAfterAnswer(request, response);
  sendJson(response, status, body, extra);
}

export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  ctx: PipelineContext,
): Promise<void> {
  try {
    if (!ctx.overSocket) checkOrigin(request.headers, checkHost(request.headers, ctx.port));
    const target = request.url ?? '';
    if (!target.startsWith('/')) throw new HttpError('BAD_REQUEST', 'the request target must be a path');
    const { rawPath, query } = splitTarget(target);
    if (rawPath === '/api' || rawPath.startsWith('/api/')) {
      await handleApi(request, response, rawPath, query, ctx);
    } else {
      await handlePage(request, response, rawPath, query, ctx);
    }
  } catch (err) {
    try {
      sendError(request, response, err, ctx);
    } catch (sendFailure) {
      ctx.logError(`could not answer: ${String(sendFailure)}`);
      response.destroy();
    }
  }
}
