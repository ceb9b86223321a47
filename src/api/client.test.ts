import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, mockFetch, networkDown } from '../test/mockFetch';
import { ApiError, apiGet, apiPath, apiPost } from './client';
import { setSessionKeyForTests } from './handshake';

beforeEach(() => setSessionKeyForTests('a-checked-session-key'));
afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('turns a JSON error into an ApiError with code, status and details', async () => {
    mockFetch({ 'POST /api/turns/t1/rollback': apiError('CONFLICT', 409, { conflicts: ['workspace:/a.txt'] }) });
    const error = await apiPost('/api/turns/t1/rollback', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((error as ApiError).conflicts).toEqual(['workspace:/a.txt']);
  });

  it('reports an unreachable server as NETWORK', async () => {
    networkDown();
    await expect(apiGet('/api/sessions')).rejects.toMatchObject({ code: 'NETWORK', status: 0 });
  });

  it("sends JSON bodies same-origin with the checked service's session key as a Bearer header", async () => {
    setSessionKeyForTests('tok-1');
    const fetchSpy = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchSpy);
    await apiPost('/api/turns/t1/preview', { withChat: true });
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/turns/t1/preview',
      expect.objectContaining({
        method: 'POST',
        credentials: 'same-origin',
        body: '{"withChat":true}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json', Authorization: 'Bearer tok-1' }),
      }),
    );
  });

  it('leaves out undefined query parameters', () => {
    expect(apiPath('/api/sessions/s1/turns', { limit: 50, before: undefined })).toBe('/api/sessions/s1/turns?limit=50');
  });
});
