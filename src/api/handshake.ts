// The console's handshake (docs/api.md "Security"): before this tab sends anything derived from
// its token, after loading and after every lost connection, the service must prove it holds the
// token (GET /api/hello with a fresh nonce). Only then does the tab send the session key, bound to
// this port and this run of the service. A listener that took the port gets a nonce, nothing else.
import { useSyncExternalStore } from 'react';
import type { HelloResponse } from '../../server/protocol';
import { consoleToken, storedSession, storeSession } from './token';

/** Why this tab stopped: its service did not prove it holds the token. */
export type Refusal = 'restarted-elsewhere' | 'wrong-token';

export const RESTARTED_ELSEWHERE = 'turnback restarted elsewhere: open `turnback url`';

/** Thrown instead of sending anything: the checked service is gone (`NETWORK`) or not ours (`refusal`). */
export class HandshakeError extends Error {
  constructor(
    readonly kind: 'network' | Refusal,
    message: string,
  ) {
    super(message);
    this.name = 'HandshakeError';
  }
}

let verifiedKey: string | null = null;
let verifiedOnce = false;
let refusal: Refusal | null = null;
let pending: Promise<string> | null = null;
const listeners = new Set<() => void>();

const encoder = new TextEncoder();

async function hmac(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const bytes = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/** The port this tab talks to: the proof and the key name it, so a relay to another port fails. */
function tabPort(): string {
  return window.location.port || (window.location.protocol === 'https:' ? '443' : '80');
}

function refuse(kind: Refusal): never {
  refusal = kind;
  verifiedKey = null;
  storeSession(null);
  for (const listener of listeners) listener();
  throw new HandshakeError(kind, kind === 'wrong-token' ? 'the server did not accept this token' : RESTARTED_ELSEWHERE);
}

async function handshake(): Promise<string> {
  const nonce = freshNonce();
  let answer: Partial<HelloResponse> | null;
  try {
    const response = await fetch(`/api/hello?nonce=${nonce}`, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    answer = response.ok ? ((await response.json().catch(() => null)) as Partial<HelloResponse> | null) : null;
  } catch (cause) {
    throw new HandshakeError('network', cause instanceof Error ? cause.message : 'The server could not be reached');
  }
  const port = tabPort();
  const token = consoleToken();
  const kept = storedSession();
  if (answer && typeof answer.proof === 'string' && typeof answer.salt === 'string') {
    if (token !== null && (await hmac(token, `turnback-server|${port}|${nonce}`)) === answer.proof) {
      const key = await hmac(token, `turnback-session|${port}|${answer.salt}`);
      storeSession({ salt: answer.salt, key });
      return key;
    }
    // A reload: only the session key is kept, good for the same run of the service alone.
    if (
      token === null &&
      kept !== null &&
      kept.salt === answer.salt &&
      (await hmac(kept.key, `turnback-server|${port}|${nonce}`)) === answer.sessionProof
    )
      return kept.key;
  }
  // A token never accepted here is a wrong URL; once it worked, the service is not the one it was.
  return refuse(token !== null && !verifiedOnce ? 'wrong-token' : 'restarted-elsewhere');
}

/** The session key to send, after a handshake when none is verified; throws HandshakeError. */
export async function sessionKey(): Promise<string> {
  if (refusal) throw new HandshakeError(refusal, refusal === 'wrong-token' ? 'wrong token' : RESTARTED_ELSEWHERE);
  if (verifiedKey) return verifiedKey;
  pending ??= handshake()
    .then((key) => {
      verifiedKey = key;
      verifiedOnce = true;
      return key;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** The connection was lost or the key refused: the next request checks the service first. */
export function forgetSessionKey(): void {
  verifiedKey = null;
}

/** Why this tab stopped, or null while it may talk to its service. */
export function useRefusal(): Refusal | null {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => refusal,
  );
}

/** Tests: a tab whose service is already checked (key given) or not yet (null). */
export function setSessionKeyForTests(key: string | null): void {
  verifiedKey = key;
  verifiedOnce = key !== null;
  refusal = null;
  pending = null;
}
