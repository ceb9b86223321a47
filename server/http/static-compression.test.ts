import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from './static.js';
import { startFakeServer, type Harness } from './test/harness.js';

const SCRIPT = `export const data = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `item ${i}`))};\n`;
let root: string;
let h: Harness;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-compress-'));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(path.join(dist, 'assets', 'app-1.js'), SCRIPT);
  await writeFile(path.join(dist, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
  h = await startFakeServer({ distDir: dist });
});
afterAll(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

function get(
  target: string,
  acceptEncoding?: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const port = h.server.port;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${port}` };
    if (acceptEncoding !== undefined) headers['Accept-Encoding'] = acceptEncoding;
    request({ host: '127.0.0.1', port, path: target, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ headers: incoming.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('text compression of static files', () => {
  it('sends brotli or gzip as Accept-Encoding asks, the same bytes once decoded, and says it varies', async () => {
    const br = await get('/assets/app-1.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/app-1.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-1.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('leaves images as they are', async () => {
    const png = await get('/assets/logo.png', 'br, gzip');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4096);
  });

  it('honours q=0 and picks brotli over gzip', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0')).toBeNull();
    expect(chooseEncoding('GZIP, BR;q=0.5')).toBe('br');
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
