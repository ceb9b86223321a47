import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app/App';
import { Providers } from '../app/Providers';
import { mockFetch } from '../test/mockFetch';
import { setSessionKeyForTests } from './handshake';
import { adoptTokenFromUrl, consoleToken, hasCredential, setTokenForTests, storedSession, storeSession } from './token';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  setTokenForTests(null);
  setSessionKeyForTests(null);
  vi.unstubAllGlobals();
});

describe('the console token', () => {
  it("moves from the printed URL into this tab's memory only, and leaves the address bar, keeping the rest of the URL", () => {
    window.history.replaceState(null, '', '/?token=abc%2B1&session=s1');
    adoptTokenFromUrl();
    expect(consoleToken()).toBe('abc+1');
    expect(window.location.search).toBe('?session=s1');
    expect(document.cookie).toBe('');
    // Nothing a page served on this port after a reload could read.
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('abc+1');
  });

  it('is not kept through a reload: only a checked session key is, and a token of earlier versions is dropped', () => {
    window.sessionStorage.setItem('turnback.token', 'kept by an older console');
    storeSession({ salt: 'salt', key: 'key' });
    window.history.replaceState(null, '', '/?session=s1');
    adoptTokenFromUrl();
    expect(consoleToken()).toBeNull();
    expect(window.sessionStorage.getItem('turnback.token')).toBeNull();
    expect(storedSession()).toEqual({ salt: 'salt', key: 'key' });
    expect(hasCredential()).toBe(true);
  });

  it('without one the console asks for the printed URL and asks the server nothing', async () => {
    const calls = mockFetch({});
    render(
      <Providers>
        <App />
      </Providers>,
    );
    expect(await screen.findByRole('heading', { name: 'Open the URL turnback printed' })).toBeInTheDocument();
    expect(screen.getByText(/turnback listening on http:\/\/.*\/\?token=/)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
