// The console's credentials (docs/api.md "Security"). The token comes once, in the printed URL's
// `?token=`, and stays in this tab's memory only: it never goes to a server again, and a page
// another listener serves on this port after a reload finds nothing of it. sessionStorage keeps
// only the session key of the service that proved it holds the token, which opens that run on
// this port and nothing else, so a reload keeps working while that service runs.
const SESSION_KEY = 'turnback.session';
/** Where earlier versions kept the token itself: removed on sight. */
const OLD_TOKEN_KEY = 'turnback.token';

let token: string | null = null;

export interface StoredSession {
  salt: string;
  key: string;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Moves `?token=` from the address bar into this tab's memory; the rest of the URL stays. */
export function adoptTokenFromUrl(): void {
  storage()?.removeItem(OLD_TOKEN_KEY);
  const url = new URL(window.location.href);
  const given = url.searchParams.get('token');
  if (given === null) return;
  token = given;
  // A new token: a session kept from another one says nothing about it.
  storage()?.removeItem(SESSION_KEY);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** The token from the printed URL, in memory, or null (after a reload). */
export function consoleToken(): string | null {
  return token;
}

export function storedSession(): StoredSession | null {
  try {
    const value = JSON.parse(storage()?.getItem(SESSION_KEY) ?? 'null') as Partial<StoredSession> | null;
    return typeof value?.salt === 'string' && typeof value.key === 'string'
      ? { salt: value.salt, key: value.key }
      : null;
  } catch {
    return null;
  }
}

export function storeSession(session: StoredSession | null): void {
  if (session) storage()?.setItem(SESSION_KEY, JSON.stringify(session));
  else storage()?.removeItem(SESSION_KEY);
}

/** Whether this tab holds anything to sign in with: the token, or a session kept through a reload. */
export function hasCredential(): boolean {
  return token !== null || storedSession() !== null;
}

/** Tests: the tab as opened from the printed URL (or, with null, as a fresh one). */
export function setTokenForTests(value: string | null): void {
  token = value;
}
