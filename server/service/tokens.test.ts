import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDistinct, checkToken, keptToken, MIN_TOKEN_LENGTH, readTokenFile, TokenError } from './tokens.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'turnback-tokens-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tokens', () => {
  it('makes a kept token once: 64 hex (256 bits), mode 0600, the same on every later read', async () => {
    const file = path.join(dir, 'state', 'console-token');
    const token = keptToken(file);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(keptToken(file)).toBe(token);
    expect(keptToken(path.join(dir, 'state', 'agent-token'))).not.toBe(token);
  });

  it('refuses tokens shorter than 128 bits of base64, and equal console and agent tokens', () => {
    expect(MIN_TOKEN_LENGTH).toBe(22);
    expect(() => checkToken('the console token', 'a'.repeat(21))).toThrow(TokenError);
    expect(checkToken('the console token', 'a'.repeat(22))).toBe('a'.repeat(22));
    expect(() => checkToken('t', `${'a'.repeat(22)} b`)).toThrow(/visible ASCII/);
    expect(() => checkDistinct({ console: 'x'.repeat(30), agent: 'x'.repeat(30) })).toThrow(/must differ/);
  });

  it('reads a token file by its first line, and names a file it cannot use', async () => {
    const file = path.join(dir, 'tok');
    await writeFile(file, `${'k'.repeat(30)}\nignored\n`);
    expect(readTokenFile('the console token file', file)).toBe('k'.repeat(30));
    await writeFile(file, 'short\n');
    expect(() => readTokenFile('the console token file', file)).toThrow(/too short/);
    expect(() => readTokenFile('the console token file', path.join(dir, 'none'))).toThrow(/cannot read .*ENOENT/);
    expect(await readFile(file, 'utf8')).toBe('short\n');
  });
});
