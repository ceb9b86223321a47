// The console's half of the handshake (docs/api.md "Security"): nothing derived from the token
// goes to a server before it proved it holds the token, for this tab's port.
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from './client';
import { setSessionKeyForTests } from './handshake';
import { setTokenForTests, storedSession, storeSession } from './token';

const TOKEN = 'the-console-token-0123456789';
const mac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('base64url');
const port = () => window.location.port || '80';

interface Seen {
  path: string;
  authorization: string | undefined;
}

/** A server on this tab's port: the real service (holding `token`, run `salt`) or another listener. */
function serve(options: { token?: string; salt?: string; provePort?: string; down?: boolean }): Seen[] {
  const seen: Seen[] = [];
  const salt = options.salt ?? 'salt-of-this-run';
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.href);
    const authorization = (init.headers as Record<string, string> | undefined)?.Authorization;
    seen.push({ path: url.pathname + url.search, authorization });
    if (options.down) throw new TypeError('Failed to fetch');
    if (url.pathname === '/api/hello') {
      if (!options.token) return new Response('{}', { status: 200 });
      const nonce = url.searchParams.get('nonce')!;
      const at = options.provePort ?? port();
      const key = mac(options.token, `turnback-session|${at}|${salt}`);
      return Response.json({
        proof: mac(options.token, `turnback-server|${at}|${nonce}`),
        salt,
        sessionProof: mac(key, `turnback-server|${at}|${nonce}`),
      });
    }
    const expected = options.token ? `Bearer ${mac(options.token, `turnback-session|${port()}|${salt}`)}` : null;
    return authorization === expected
      ? Response.json({ ok: true })
      : Response.json({ error: { code: 'UNAUTHORIZED', message: 'no' } }, { status: 401 });
  });
  return seen;
}

/** Whether anything but a hello's nonce reached the server: the token or a key derived from it. */
function leaked(seen: Seen[]): Seen[] {
  return seen.filter((call) => call.authorization !== undefined || !call.path.startsWith('/api/hello?nonce='));
}

beforeEach(() => {
  setTokenForTests(TOKEN);
  setSessionKeyForTests(null);
});
afterEach(() => {
  window.sessionStorage.clear();
  setTokenForTests(null);
  setSessionKeyForTests(null);
  vi.unstubAllGlobals();
});

describe('the handshake', () => {
  it('checks the proof first, then sends the session key of this run and port, never the token', async () => {
    const seen = serve({ token: TOKEN });
    await expect(apiGet('/api/sessions')).resolves.toEqual({ ok: true });
    expect(seen[0]).toEqual({
      path: expect.stringMatching(/^\/api\/hello\?nonce=[A-Za-z0-9_-]{16,}$/),
      authorization: undefined,
    });
    expect(seen[1].authorization).toBe(`Bearer ${mac(TOKEN, `turnback-session|${port()}|salt-of-this-run`)}`);
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
    // One handshake for many requests.
    await apiGet('/api/sessions');
    expect(seen.filter((call) => call.path.startsWith('/api/hello'))).toHaveLength(1);
  });

  it('sends a listener that cannot prove it holds the token nothing but a nonce, and stops', async () => {
    serve({ token: TOKEN });
    await apiGet('/api/sessions');
    // The service stops; another user's listener takes the port.
    serve({ down: true });
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'NETWORK' });
    const seen = serve({});
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'RESTARTED_ELSEWHERE' });
    await expect(apiGet('/api/store')).rejects.toMatchObject({ code: 'RESTARTED_ELSEWHERE' });
    expect(leaked(seen)).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(storedSession()).toBeNull();
  });

  it('refuses a proof relayed from the real service on another port', async () => {
    serve({ token: TOKEN });
    await apiGet('/api/sessions');
    serve({ down: true });
    await apiGet('/api/sessions').catch(() => undefined);
    const seen = serve({ token: TOKEN, provePort: '4999', salt: 'the-new-run' });
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'RESTARTED_ELSEWHERE' });
    expect(leaked(seen)).toEqual([]);
  });

  it('finds its service again after a restart on the same port (a new salt), with the token it holds', async () => {
    serve({ token: TOKEN });
    await apiGet('/api/sessions');
    serve({ token: TOKEN, salt: 'the-next-run' });
    // The old key is refused once; the tab checks the service again and goes on.
    await expect(apiGet('/api/sessions')).resolves.toEqual({ ok: true });
  });

  it('after a reload, uses the kept session key with the same run only', async () => {
    serve({ token: TOKEN });
    await apiGet('/api/sessions');
    const kept = storedSession();
    expect(kept?.key).toBe(mac(TOKEN, `turnback-session|${port()}|salt-of-this-run`));
    // A reload: the token is gone from memory, the session key stays.
    setTokenForTests(null);
    setSessionKeyForTests(null);
    storeSession(kept);
    serve({ token: TOKEN });
    await expect(apiGet('/api/sessions')).resolves.toEqual({ ok: true });
    setSessionKeyForTests(null);
    storeSession(kept);
    const seen = serve({ token: TOKEN, salt: 'the-next-run' });
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'RESTARTED_ELSEWHERE' });
    expect(leaked(seen)).toEqual([]);
  });

  it('says a token the service never accepted is wrong (401), not a restart', async () => {
    serve({ token: 'another-token-0123456789' });
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
