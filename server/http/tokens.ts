import { createHmac, randomBytes } from 'node:crypto';

/** A fresh random token: 192 bits, URL- and cookie-safe. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

// The console's handshake (docs/api.md "Security"): the service proves it holds the console token
// before the tab sends anything derived from it. Both are bound to the port the tab talks to, so a
// listener that relays the handshake to the real service on another port gets nothing it can use.

/** HMAC-SHA256 of `message` under `key`, base64url: what the console computes with WebCrypto. */
export function hmac(key: string, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64url');
}

/** The service's answer to a tab's nonce: only a holder of the token can make it. */
export function serverProof(token: string, port: number, nonce: string): string {
  return hmac(token, `turnback-server|${port}|${nonce}`);
}

/** The key a tab sends instead of the token: valid for this port and this run of the service only. */
export function sessionKey(token: string, port: number, salt: string): string {
  return hmac(token, `turnback-session|${port}|${salt}`);
}
