// The console and agent tokens of a person's service (docs/api.md "Tokens"): 32 random bytes as
// hex each, in 0600 files of the state dir, created on first start and kept across restarts, so
// a console tab stays signed in when the service restarts. A flag, a file or the environment
// may fix either one instead.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readPrivateFile } from './private-file.js';

/** 22 characters of base64 carry 128 bits: nothing shorter is accepted. */
export const MIN_TOKEN_LENGTH = 22;
const TOKEN_SHAPE = /^[\x21-\x7e]+$/;

/** A token that cannot be used: one line on stderr, exit code 2. */
export class TokenError extends Error {}

export interface Tokens {
  console: string;
  agent: string;
}

export function checkToken(name: string, token: string): string {
  if (!TOKEN_SHAPE.test(token) || token.length > 512)
    throw new TokenError(`${name} must be visible ASCII characters (at most 512)`);
  if (token.length < MIN_TOKEN_LENGTH)
    throw new TokenError(`${name} is too short: at least ${MIN_TOKEN_LENGTH} characters (128 bits)`);
  return token;
}

/** A token file's first line. */
export function readTokenFile(name: string, file: string): string {
  let text: string;
  try {
    text = readPrivateFile(file);
  } catch (err) {
    throw new TokenError(
      `cannot read ${name} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return checkToken(`${name} ${file}`, text.split('\n')[0].trim());
}

/** The token kept in `file`, made when there is none (created exclusively: two starters agree on one). */
export function keptToken(file: string): string {
  try {
    return readTokenFile('the token file', file);
  } catch (err) {
    if (!(err instanceof TokenError) || !/ENOENT/.test(err.message)) throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readTokenFile('the token file', file);
    throw err;
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}

export function checkDistinct(tokens: Tokens): Tokens {
  if (tokens.console === tokens.agent) throw new TokenError('the console token and the agent token must differ');
  return tokens;
}
