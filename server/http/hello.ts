// GET /api/hello?nonce=N, the first half of the console's handshake (docs/api.md "Security"):
// answered without a token, it proves this service holds the console token, so a tab can tell
// the real service from whoever took its port before it sends anything derived from the token.
import type { HelloResponse } from '../protocol.js';
import { HttpError } from './errors.js';
import { hmac, serverProof, sessionKey } from './tokens.js';

export const HELLO_PATH = '/api/hello';

/** A nonce the tab picked: base64url, 16 to 128 characters. */
const NONCE = /^[A-Za-z0-9_-]{16,128}$/;

export function helloAnswer(query: URLSearchParams, token: string, port: number, salt: string): HelloResponse {
  const nonce = query.get('nonce') ?? '';
  if (!NONCE.test(nonce)) throw new HttpError('BAD_REQUEST', 'nonce must be 16 to 128 base64url characters');
  return {
    proof: serverProof(token, port, nonce),
    salt,
    sessionProof: hmac(sessionKey(token, port, salt), `turnback-server|${port}|${nonce}`),
  };
}
