import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../app/App';
import { session } from '../../test/fixtures';
import { apiError, json, mockFetch, networkDown } from '../../test/mockFetch';
import { renderWithClient } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

describe('console states', () => {
  it('a 401 tells the person to reopen the tokenized URL the server printed', async () => {
    mockFetch({ 'GET /api/sessions': apiError('UNAUTHORIZED', 401), 'GET /api/store': apiError('UNAUTHORIZED', 401) });
    renderWithClient(<App />);
    expect(await screen.findByRole('heading', { name: 'This console is not signed in' })).toBeInTheDocument();
    expect(screen.getByText(/Reopen the tokenized URL/)).toBeInTheDocument();
    expect(screen.getByText(/turnback listening on http:\/\/.*\/\?token=/)).toBeInTheDocument();
  });

  it('a server that does not answer gets its own page with a retry', async () => {
    networkDown();
    renderWithClient(<App />);
    expect(await screen.findByRole('heading', { name: 'The turnback server is not answering' })).toBeInTheDocument();
    mockFetch({
      'GET /api/sessions': json({ sessions: [] }),
      'GET /api/store': json({ sessions: 0, turns: 0, blobs: 0, bytes: 0, dataDir: '/d' }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No sessions yet' })).toBeInTheDocument();
  });

  it('with no sessions yet it shows how an agent connects, with the first calls', async () => {
    mockFetch({
      'GET /api/sessions': json({ sessions: [] }),
      'GET /api/store': json({ sessions: 0, turns: 0, blobs: 0, bytes: 0, dataDir: '/d' }),
    });
    renderWithClient(<App />);
    expect(await screen.findByRole('heading', { name: 'No sessions yet' })).toBeInTheDocument();
    const example = screen.getByLabelText('Example agent calls');
    expect(example).toHaveTextContent('/api/agent/input');
    expect(example).toHaveTextContent('/api/agent/fs/write');
    expect(example).toHaveTextContent('/api/agent/turn-end');
    expect(example).toHaveTextContent('Authorization: Bearer');
  });

  it('shows sessions and the store usage when there is data', async () => {
    mockFetch({
      'GET /api/sessions': json({
        sessions: [session({ sessionId: 'abc', platform: 'claude-code', sessionType: 'cli', turnCount: 0 })],
      }),
      'GET /api/store': json({ sessions: 1, turns: 0, blobs: 3, bytes: 2048, dataDir: '/data' }),
      'GET /api/sessions/abc/turns': json({ turns: [] }),
    });
    renderWithClient(<App />);
    expect(await screen.findByRole('button', { name: /Session abc, claude-code:cli, 0 turns/ })).toBeInTheDocument();
    expect(await screen.findByLabelText('Store usage')).toHaveTextContent('2.0 KiB');
    expect(await screen.findByText('No turns in this session yet.')).toBeInTheDocument();
  });
});
