import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app/App';
import { Providers } from '../app/Providers';
import { mockFetch } from '../test/mockFetch';
import { adoptTokenFromUrl, consoleToken } from './token';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
});

describe('the console token', () => {
  it('moves from the printed URL into sessionStorage and leaves the address bar, keeping the rest of the URL', () => {
    window.history.replaceState(null, '', '/?token=abc%2B1&session=s1');
    adoptTokenFromUrl();
    expect(consoleToken()).toBe('abc+1');
    expect(window.location.search).toBe('?session=s1');
    expect(document.cookie).toBe('');
  });

  it('stays when the page is opened again without one (a reload after the address bar lost it)', () => {
    window.sessionStorage.setItem('turnback.token', 'kept');
    window.history.replaceState(null, '', '/?session=s1');
    adoptTokenFromUrl();
    expect(consoleToken()).toBe('kept');
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
