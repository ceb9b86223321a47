// The HTTP server: node:http on 127.0.0.1 only, embedding an engine or a service's workspaces. Used by the CLI, the tests,
// the benchmark and the e2e suite.
import { chmodSync, rmSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../engine/api.js';
import { API_HEADERS } from './headers.js';
import { singleEngine, type EngineSource } from './engine-source.js';
import { Told } from './not-recorded.js';
import type { HookPlaceReader } from './agent-place.js';
import { handleRequest, type PipelineContext } from './pipeline.js';
import { withRoutes } from './routes/index.js';
import type { PersonBudgetControl } from './routes/person-budget.js';
import { openEventStream, PING_INTERVAL_MS, type EventStream } from './sse.js';
import { generateToken, sessionKey } from './tokens.js';
import type { Route } from './types.js';
import { packageVersion } from './version.js';

export const LOOPBACK = '127.0.0.1';

export interface ServerLog {
  /** Failures worth a look (an INTERNAL answer's stack). Query strings are never logged. */
  error(message: string): void;
  info?(message: string): void;
}

export interface StartServerOptions {
  /** The one engine of a single-workspace server; or `source`, the service's workspaces. */
  engine?: Engine;
  source?: EngineSource;
  /** 0 picks a free port. Default 4820. */
  port?: number;
  /** The console token; random when absent. */
  token?: string;
  /** The agent token; random when absent. */
  agentToken?: string;
  /** The built console; defaults to the package's dist/. */
  distDir?: string;
  log?: ServerLog;
  version?: string;
  pingIntervalMs?: number;
  maxBodyBytes?: number;
  /** Milliseconds a client gets to send its headers (default 10 s) and its whole request (60 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * Routes besides docs/api.md's own table, from whoever wires the server (the CLI adds the agent
   * adapters' routes): http itself knows no adapter.
   */
  routes?: readonly Route[];
  /** How each host reads a raw hook event's session and folder, for choosing its workspace. */
  readHookPlace?: HookPlaceReader;
  /**
   * Also listen on this Unix socket (the service's `service.sock` in its 0700 state dir, made
   * 0600): the CLI and the hooks talk there, where no other user can take the address.
   */
  socketPath?: string;
  /** The person's budget over all the workspaces (`/api/settings/person-budget`): the service's keeper. */
  personBudget?: PersonBudgetControl;
}

export interface RunningServer {
  port: number;
  /** The tokenized address the console opens with: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  origin: string;
  token: string;
  agentToken: string;
  /** The Unix socket it also listens on, when asked to. */
  socketPath?: string;
  /** Ends event streams and connections; the engine stays open (its owner closes it). */
  close(): Promise<void>;
}

/** dist/ sits two levels above both server/http/ and build/http/. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

const stderrLog: ServerLog = {
  error: (message) => process.stderr.write(`${message}\n`),
};

function answerMalformed(err: NodeJS.ErrnoException, socket: Socket): void {
  // Bytes after a request that said `Connection: close` (node's own client sends a body on
  // OPTIONS or DELETE unframed) get no answer of their own (RFC 9112 section 9.6): the
  // request's answer, maybe still being made, ends the connection; a stuck one is cut later.
  if (err.code === 'HPE_CLOSED_CONNECTION') {
    setTimeout(() => socket.destroy(), 5_000).unref();
    return;
  }
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'malformed or incomplete request' } });
  const headers = Object.entries({ ...API_HEADERS, 'Content-Type': 'application/json; charset=utf-8' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${headers}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function listenOnSocket(server: ReturnType<typeof createServer>, socketPath: string): Promise<void> {
  // A socket file left by a service that died: the service lock says none runs now.
  rmSync(socketPath, { force: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, exclusive: true }, () => {
      server.off('error', reject);
      chmodSync(socketPath, 0o600);
      resolve();
    });
  });
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen({ port, host: LOOPBACK, exclusive: true }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const log = options.log ?? stderrLog;
  const token = options.token ?? generateToken();
  const agentToken = options.agentToken ?? generateToken();
  const streams = new Set<EventStream>();
  const source = options.source ?? (options.engine ? singleEngine(options.engine) : undefined);
  if (!source) throw new Error('startServer needs an engine or a source');
  const ctx: PipelineContext = {
    port: 0,
    tokens: { console: token, agent: agentToken },
    sessionSalt: generateToken(),
    routes: withRoutes(options.routes ?? []),
    source,
    version: options.version ?? packageVersion(),
    told: new Told(),
    readHookPlace: options.readHookPlace,
    distDir: options.distDir ?? DEFAULT_DIST_DIR,
    maxBodyBytes: options.maxBodyBytes,
    personBudget: options.personBudget,
    logError: (message) => log.error(message),
    openEvents: (_request: IncomingMessage, response: ServerResponse, workspaceId: string | undefined) => {
      const stream = openEventStream(
        response,
        source,
        workspaceId,
        API_HEADERS,
        () => streams.delete(stream),
        options.pingIntervalMs ?? PING_INTERVAL_MS,
      );
      streams.add(stream);
    },
  };

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  // Short limits: a slow or stuck client must not hold a connection (slowloris). Node checks
  // them on an interval, so the interval must be short too.
  const serverOptions = {
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeoutMs ?? 60_000, headersTimeout),
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const serve = (context: PipelineContext) => {
    const made = createServer(serverOptions, (request, response) => {
      void handleRequest(request, response, context);
    });
    made.on('clientError', answerMalformed);
    return made;
  };
  const server = serve(ctx);

  ctx.port = await listen(server, options.port ?? 4820);
  ctx.tokens.session = sessionKey(token, ctx.port, ctx.sessionSalt);
  const origin = `http://${LOOPBACK}:${ctx.port}`;
  const servers = [server];
  if (options.socketPath !== undefined) {
    const local = serve({ ...ctx, overSocket: true });
    try {
      await listenOnSocket(local, options.socketPath);
    } catch (err) {
      server.close();
      throw err;
    }
    servers.push(local);
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= Promise.all(
      servers.map(
        (each) =>
          new Promise<void>((resolve) => {
            each.close(() => resolve());
            each.closeIdleConnections();
            // Requests already running get a moment to answer before their connections are cut.
            setTimeout(() => each.closeAllConnections(), 2_000).unref();
          }),
      ),
    ).then(() => undefined);
    for (const stream of [...streams]) stream.close();
    return closing;
  };

  return {
    port: ctx.port,
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    token,
    agentToken,
    ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : {}),
    close,
  };
}
