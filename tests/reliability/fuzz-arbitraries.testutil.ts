// Generators of hostile-but-plausible HTTP requests for the fuzz suite: request targets built
// from the real routes with odd ids, encodings and traversal attempts; headers that are
// mostly right (so requests reach the operations) and sometimes wrong; JSON bodies with the
// field names of docs/api.md and values that try to leave the workspace.
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

const escapes = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '..%2f',
  '%2f',
  '%5c',
  '%252e%252e',
  '%00',
  '\\',
  '.',
  '',
  '%',
  '%ff',
  '#',
  'escape',
  'escape/secret.txt',
];

const segment = fc.oneof(
  fc.constantFrom(...escapes),
  fc.webSegment(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const hostileUri = fc.oneof(
  fc.constantFrom(
    'workspace:/a.txt',
    'workspace:/src/main.ts',
    'workspace:/new/file.txt',
    'workspace:/escape/secret.txt',
    'workspace:/escape/planted.txt',
    'workspace:/secret-link',
    'workspace:/escape',
    'workspace:/../outside/secret.txt',
    'workspace:/./a.txt',
    'workspace://a.txt',
    'workspace:/a.txt/',
    'workspace:/',
    'workspace:',
    'data:/notes.txt',
    'tmp:/scratch.txt',
    'data:/../store/x',
    'tmp:/../store/turnback.db',
    'nosuchroot:/x',
    '/etc/passwd',
    'file:///etc/passwd',
    'workspace:/a\u0000b',
    'workspace:/e\u0301.txt',
    'workspace:/dir\\..\\x',
    'workspace:/.git/config',
    'workspace:/node_modules/x/index.js',
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
  return fc.oneof(
    fc.constantFrom(...ctx.turnIds, 'nope'),
    segment,
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
  );
}

const anyJson = fc.jsonValue({ maxDepth: 3 });

function bodyArb(ctx: FuzzContext) {
  const sessionId = sessionIdArb(ctx);
  const field = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyJson);
  const shaped = fc
    .record(
      {
        sessionId,
        uri: field(hostileUri),
        from: field(hostileUri),
        to: field(hostileUri),
        uris: field(fc.array(hostileUri, { maxLength: 3 })),
        content: field(fc.string({ maxLength: 200 })),
        encoding: field(fc.constantFrom('utf8', 'base64', 'hex')),
        recursive: field(fc.boolean()),
        force: field(fc.boolean()),
        withChat: field(fc.boolean()),
        toTurnId: field(turnIdArb(ctx)),
        platform: field(fc.constantFrom('webui', 'claude-code', '*')),
        sessionType: field(fc.constantFrom('chat', 'cli')),
        role: field(fc.constantFrom('assistant', 'tool', 'system', 'user')),
        op: field(fc.constantFrom('write', 'delete', 'rename', 'move', 'mkdir')),
        tool: field(fc.constantFrom('exec', 'run_tests', 'read')),
        command: field(fc.string({ maxLength: 40 })),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o));
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

/** Request targets with the method their route takes, so most requests reach an operation. */
function routedArb(ctx: FuzzContext): fc.Arbitrary<{ method: string; target: string }> {
  const t = turnIdArb(ctx);
  const s = sessionIdArb(ctx).map(encodeURIComponent);
  const q = hostileUri.map(encodeURIComponent);
  const get = (arb: fc.Arbitrary<string>) => arb.map((target) => ({ method: 'GET', target }));
  const post = (arb: fc.Arbitrary<string>) => arb.map((target) => ({ method: 'POST', target }));
  return fc
    .oneof(
      get(
        fc.constantFrom(
          '/api/health',
          '/api/store',
          '/api/sessions',
          '/api/events?x=1',
          '/',
          '/index.html',
          '/?token=wrong',
        ),
      ),
      get(s.map((id) => `/api/sessions/${id}/turns`)),
      get(
        fc
          .tuple(s, fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
          .map(
            ([id, l, b]) => `/api/sessions/${id}/turns?limit=${encodeURIComponent(l)}&before=${encodeURIComponent(b)}`,
          ),
      ),
      get(fc.tuple(s, t).map(([id, turn]) => `/api/sessions/${id}/messages?limit=5&turnId=${turn}`)),
      s.map((id) => ({ method: 'DELETE', target: `/api/sessions/${id}` })),
      post(s.map((id) => `/api/sessions/${id}/rewind`)),
      post(s.map((id) => `/api/sessions/${id}/rewind/preview`)),
      get(t.map((id) => `/api/turns/${id}`)),
      get(fc.tuple(t, q).map(([id, u]) => `/api/turns/${id}/diff?uri=${u}`)),
      post(t.map((id) => `/api/turns/${id}/preview`)),
      post(t.map((id) => `/api/turns/${id}/rollback`)),
      post(t.map((id) => `/api/turns/${id}/rollback-with-chat`)),
      post(
        fc
          .constantFrom(
            'input',
            'message',
            'turn-end',
            'exec',
            'before-mutate',
            'fs/write',
            'fs/delete',
            'fs/rename',
            'fs/move',
            'fs/mkdir',
          )
          .map((a) => `/api/agent/${a}`),
      ),
      get(q.map((u) => `/api/agent/fs/read?uri=${u}`)),
      get(fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => `/${segs.join('/')}`)),
      get(fc.array(segment, { minLength: 1, maxLength: 4 }).map((segs) => `/assets/${segs.join('/')}`)),
      get(fc.webPath().map((p) => p || '/')),
    )
    .map((r) => (r.target.startsWith('/') ? r : { ...r, target: `/${r.target}` }));
}

// Header values must be valid for node's client (it refuses control characters itself).
const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

function hostileHeadersArb(ctx: FuzzContext) {
  const host = `127.0.0.1:${ctx.port}`;
  return fc
    .record({
      host: fc.constantFrom(
        host,
        `localhost:${ctx.port}`,
        `[::1]:${ctx.port}`,
        'evil.example:80',
        `127.0.0.1:${ctx.port + 1}`,
        '127.0.0.1',
        '',
      ),
      origin: fc.constantFrom(undefined, `http://${host}`, 'null', 'http://evil.example', `https://${host}`),
      authorization: fc.oneof(
        fc.constantFrom(
          undefined,
          `Bearer ${ctx.token}`,
          `Bearer ${ctx.agentToken}`,
          'Bearer',
          `bearer ${ctx.token}x`,
          `Basic ${ctx.token}`,
        ),
        headerValue,
      ),
      contentType: fc.oneof(
        fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/jsonx', 'multipart/form-data'),
        headerValue,
      ),
      cookie: fc.oneof(
        fc.constant(undefined),
        headerValue.map((v) => `turnback_${ctx.port}=${v}`),
      ),
    })
    .map((h) => {
      const out: Record<string, string> = {};
      if (h.host !== '') out.host = h.host;
      if (h.origin) out.origin = h.origin;
      if (h.authorization) out.authorization = h.authorization;
      if (h.contentType) out['content-type'] = h.contentType;
      if (h.cookie) out.cookie = h.cookie;
      return out;
    });
}

/** What a console or agent would send: an allowed Host, its own Origin or none, a real token. */
function validHeadersArb(ctx: FuzzContext) {
  return fc
    .record({
      host: fc.constantFrom(`127.0.0.1:${ctx.port}`, `localhost:${ctx.port}`, `[::1]:${ctx.port}`),
      withOrigin: fc.boolean(),
      token: fc.constantFrom(ctx.token, ctx.token, ctx.agentToken),
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8'),
    })
    .map(
      (h) =>
        ({
          host: h.host,
          ...(h.withOrigin ? { origin: `http://${h.host}` } : {}),
          authorization: `Bearer ${h.token}`,
          'content-type': h.contentType,
        }) as Record<string, string>,
    );
}

export function fuzzRequestArb(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const methods = fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD');
  const routed = routedArb(ctx);
  return fc
    .oneof(
      // Mostly well-formed envelopes, so the operations themselves meet the hostile values.
      {
        weight: 4,
        arbitrary: fc
          .record({ r: routed, headers: validHeadersArb(ctx), body: bodyArb(ctx) })
          .map(({ r, headers, body }) => ({ method: r.method, target: r.target, headers, body })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ r: routed, method: methods, headers: hostileHeadersArb(ctx), body: bodyArb(ctx) })
          .map(({ r, method, headers, body }) => ({ method, target: r.target, headers, body })),
      },
    )
    .map((r) => (r.method === 'GET' || r.method === 'HEAD' ? { ...r, body: undefined } : r));
}
