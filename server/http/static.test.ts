import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './headers.js';
import { safeSegments } from './static.js';
import { send, sendRaw } from './test/client.js';
import { CONSOLE_TOKEN, startFakeServer, type Harness } from './test/harness.js';

const SECRET = 'SECRET-OUTSIDE-DIST';
const INDEX = '<!doctype html><title>turnback</title><div id="root"></div>';
let root: string;
let h: Harness;
let port: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-static-'));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'app-123.js'), 'console.log(1)');
  await writeFile(path.join(root, 'secret.txt'), SECRET);
  await mkdir(path.join(root, 'dist-evil'));
  await writeFile(path.join(root, 'dist-evil', 'x.txt'), SECRET);
  await symlink(path.join(root, 'secret.txt'), path.join(dist, 'link.txt'));
  await symlink(root, path.join(dist, 'outside'));
  h = await startFakeServer({ distDir: dist });
  port = h.server.port;
});
afterAll(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

function rawGet(target: string, accept = '*/*'): Promise<string> {
  return sendRaw(
    port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`,
  );
}

describe('static files', () => {
  it('serves index.html at / with the CSP and Referrer-Policy, and no secret in it', async () => {
    const answer = await send(port, { path: '/', headers: { Accept: 'text/html' } });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(INDEX);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.text).not.toContain(CONSOLE_TOKEN);
  });

  it('serves assets with their content type', async () => {
    const answer = await send(port, { path: '/assets/app-123.js' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.text).toBe('console.log(1)');
  });

  it('falls back to index.html for client routes asked for as HTML, 404 otherwise', async () => {
    const page = await send(port, {
      path: '/sessions/s1/turns/t1',
      headers: { Accept: 'text/html,application/xhtml+xml' },
    });
    expect([page.status, page.text]).toEqual([200, INDEX]);
    const asset = await send(port, { path: '/assets/missing.js' });
    expect([asset.status, asset.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers a wrong login token with 401: the console page for a browser, JSON otherwise, never a cookie', async () => {
    const page = await send(port, { path: '/?token=wrong', headers: { Accept: 'text/html' } });
    expect([page.status, page.text]).toEqual([401, INDEX]);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['set-cookie']).toBeUndefined();
    const api = await send(port, { path: '/?token=wrong' });
    expect([api.status, api.json.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('sends the wrong-token page uncached and uncompressed, and to HEAD without its body', async () => {
    const headers = { Accept: 'text/html', 'Accept-Encoding': 'br, gzip' };
    const page = await send(port, { path: '/?token=wrong', headers });
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-length']).toBe(String(Buffer.byteLength(INDEX)));
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.headers.vary).toBeUndefined();
    const head = await send(port, { method: 'HEAD', path: '/?token=wrong', headers });
    expect([head.status, head.text, head.headers['content-length']]).toEqual([
      401,
      '',
      String(Buffer.byteLength(INDEX)),
    ]);
  });

  it('answers HEAD without a body and 405 to other methods', async () => {
    const head = await send(port, { method: 'HEAD', path: '/' });
    expect([head.status, head.text]).toEqual([200, '']);
    const postPage = await send(port, { method: 'POST', path: '/', body: {} });
    expect([postPage.status, postPage.json.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });

  const TRAVERSALS = [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/.%2e/secret.txt',
    '/%252e%252e/secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%5c..%5csecret.txt',
    '/..%255csecret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/#/../secret.txt',
    '/%23/../secret.txt',
    '/index.html%00',
    '/%00/../secret.txt',
    '//secret.txt',
    '/./secret.txt',
    '/assets/./../../secret.txt',
    '/link.txt',
    '/outside/secret.txt',
    '/outside/dist-evil/x.txt',
    '/../dist-evil/x.txt',
    `/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd`,
  ];

  it.each(TRAVERSALS)('never serves anything outside dist/ for %s', async (target) => {
    for (const accept of ['*/*', 'text/html']) {
      const answer = await rawGet(target, accept);
      expect(answer).not.toContain(SECRET);
      expect(answer).not.toContain('root:x:0:0');
      const status = Number(answer.slice(9, 12));
      // Either refused, or (for an HTML client route) the console page itself.
      if (status === 200) expect(answer.endsWith(INDEX)).toBe(true);
      else expect([400, 404]).toContain(status);
    }
  });

  it('refuses dot segments, encoded separators, double encoding, NUL and # in paths', () => {
    for (const target of [
      '/..',
      '/a/%2e%2e',
      '/a%2fb',
      '/a%5cb',
      '/a%252fb',
      '/a%00',
      '/a#b',
      '/a\\b',
      '/a//b',
      '/%ff',
    ]) {
      expect(() => safeSegments(target), target).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
    expect(safeSegments('/assets/app%20x.js')).toEqual(['assets', 'app x.js']);
  });
});
