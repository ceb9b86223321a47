// Generators of hostile-but-plausible HTTP requests for the fuzz suite: request targets built
// from the real routes with odd ids, encodings and traversal attempts; headers that are
// mostly right (so requests reach the operations) and sometimes wrong; JSON bodies with the
// field names of API.md and values that try to leave the workspace.
import fc from 'fast-check';

export interface FuzzRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzContext {
  port: number;
  token: string;
  agentToken: string;
  /** Real ids from the store, so some requests reach a turn or session that exists. */
  turnIds: string[];
  sessionIds: string[];
}

const escapes = ['..', '%2e%2e', '%2E%2E', '..%2f', '%2f', '%5c', '%252e%252e', '%00', '\\', '.', '', '%', '%ff', '#', 'escape', 'escape/secret.txt'];

const segment = fc.oneof(
  fc.constantFrom(...escapes),
  fc.webSegment(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const hostileUri = fc.oneof(
  fc.constantFrom(
    'workspace:/a.txt', 'workspace:/src/main.ts', 'workspace:/new/file.txt', 'workspace:/escape/secret.txt',
    'workspace:/escape/planted.txt', 'workspace:/../outside/secret.txt', 'workspace:/./a.txt', 'workspace://a.txt',
    'workspace:/a.txt/', 'workspace:/', 'workspace:', 'data:/notes.txt', 'tmp:/scratch.txt', 'data:/../store/x',
    'tmp:/../store/turnback.db', 'nosuchroot:/x', '/etc/passwd', 'file:///etc/passwd', 'workspace:/a\u0000b',
    'workspace:/e\u0301.txt', 'workspace:/dir\\..\\x', 'workspace:/.git/config', 'workspace:/node_modules/x/index.js',
  ),
  fc.array(segment, { minLength: 0, maxLength: 4 }).map((segs) => `workspace:/${segs.join('/')}`),
  fc.string({ maxLength: 40 }),
);

function sessionIdArb(ctx: FuzzContext) {
  return fc.oneof(
    fc.constantFrom(...ctx.sessionIds, 'fuzz-session', 's:1@x.y-z'),
    fc.string({ maxLength: 30 }),
    fc.constant('x'.repeat(201)),
  );
}

function turnIdArb(ctx: FuzzContext) {
  return fc.oneof(fc.constantFrom(...ctx.turnIds, 'nope'), segment, fc.string({ maxLength: 20 }).map(encodeURIComponent));
}

const anyJson = fc.jsonValue({ maxDepth: 3 });

function bodyArb(ctx: FuzzContext) {
  const sessionId = sessionIdArb(ctx);
  const field = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyJson);
  const shaped = fc.record(
    {
      sessionId, uri: field(hostileUri), from: field(hostileUri), to: field(hostileUri),
      uris: field(fc.array(hostileUri, { maxLength: 3 })), content: field(fc.string({ maxLength: 200 })),
      encoding: field(fc.constantFrom('utf8', 'base64', 'hex')), recursive: field(fc.boolean()),
      force: field(fc.boolean()), withChat: field(fc.boolean()), toTurnId: field(turnIdArb(ctx)),
      platform: field(fc.constantFrom('webui', 'claude-code', '*')), sessionType: field(fc.constantFrom('chat', 'cli')),
      role: field(fc.constantFrom('assistant', 'tool', 'system', 'user')), op: field(fc.constantFrom('write', 'delete', 'rename', 'move', 'mkdir')),
      tool: field(fc.constantFrom('exec', 'run_tests', 'read')), command: field(fc.string({ maxLength: 40 })),
    },
    { requiredKeys: [] },
  ).map((o) => JSON.stringify(o));
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

function targetArb(ctx: FuzzContext) {
  const t = turnIdArb(ctx);
  const s = sessionIdArb(ctx).map(encodeURIComponent);
  const q = hostileUri.map(encodeURIComponent);
  return fc.oneof(
    fc.constantFrom('/api/health', '/api/store', '/api/sessions', '/api/events?x=1', '/', '/index.html', '/?token=wrong'),
    s.map((id) => `/api/sessions/${id}/turns`),
    fc.tuple(s, fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([id, l, b]) => `/api/sessions/${id}/turns?limit=${encodeURIComponent(l)}&before=${encodeURIComponent(b)}`),
    s.map((id) => `/api/sessions/${id}/messages?limit=5`),
    s.map((id) => `/api/sessions/${id}`),
    s.map((id) => `/api/sessions/${id}/rewind`),
    s.map((id) => `/api/sessions/${id}/rewind/preview`),
    t.map((id) => `/api/turns/${id}`),
    fc.tuple(t, q).map(([id, u]) => `/api/turns/${id}/diff?uri=${u}`),
    t.map((id) => `/api/turns/${id}/preview`),
    t.map((id) => `/api/turns/${id}/rollback`),
    t.map((id) => `/api/turns/${id}/rollback-with-chat`),
    fc.constantFrom('input', 'message', 'turn-end', 'exec', 'before-mutate', 'fs/write', 'fs/delete', 'fs/rename', 'fs/move', 'fs/mkdir').map((a) => `/api/agent/${a}`),
    q.map((u) => `/api/agent/fs/read?uri=${u}`),
    fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => `/${segs.join('/')}`),
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((segs) => `/assets/${segs.join('/')}`),
    fc.webPath().map((p) => p || '/'),
  ).map((target) => (target.startsWith('/') ? target : `/${target}`));
}

// Header values must be valid for node's client (it refuses control characters itself).
const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

function headersArb(ctx: FuzzContext) {
  const host = `127.0.0.1:${ctx.port}`;
  return fc.record({
    host: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(host, `localhost:${ctx.port}`, `[::1]:${ctx.port}`) },
      { weight: 1, arbitrary: fc.constantFrom('evil.example:80', `127.0.0.1:${ctx.port + 1}`, '127.0.0.1', '') }),
    origin: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constant(`http://${host}`) },
      { weight: 1, arbitrary: fc.constantFrom('null', 'http://evil.example', `https://${host}`) }),
    authorization: fc.oneof({ weight: 6, arbitrary: fc.constant(`Bearer ${ctx.token}`) }, { weight: 2, arbitrary: fc.constant(`Bearer ${ctx.agentToken}`) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'Bearer', `bearer ${ctx.token}x`, `Basic ${ctx.token}`) }, { weight: 1, arbitrary: headerValue }),
    contentType: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/jsonx', 'multipart/form-data') }, { weight: 1, arbitrary: headerValue }),
    cookie: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: headerValue.map((v) => `turnback_${ctx.port}=${v}`) }),
  }).map((h) => {
    const out: Record<string, string> = {};
    if (h.host !== '') out.host = h.host;
    if (h.origin) out.origin = h.origin;
    if (h.authorization) out.authorization = h.authorization;
    if (h.contentType) out['content-type'] = h.contentType;
    if (h.cookie) out.cookie = h.cookie;
    return out;
  });
}

export function fuzzRequestArb(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 1, arbitrary: fc.constantFrom('DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') }),
    target: targetArb(ctx),
    headers: headersArb(ctx),
    body: bodyArb(ctx),
  }).map((r) => (r.method === 'GET' || r.method === 'HEAD' ? { ...r, body: undefined } : r));
}
