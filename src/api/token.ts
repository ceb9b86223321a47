// The console token: read once from the printed URL's `?token=`, kept in this tab's
// sessionStorage (a reload keeps it, another site or port never sees it) and dropped from the
// address bar. Never a cookie: a browser sends 127.0.0.1 cookies to every local port.
const STORAGE_KEY = 'turnback.token';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Moves `?token=` from the address bar into sessionStorage; the rest of the URL stays. */
export function adoptTokenFromUrl(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return;
  storage()?.setItem(STORAGE_KEY, token);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export function consoleToken(): string | null {
  return storage()?.getItem(STORAGE_KEY) || null;
}
