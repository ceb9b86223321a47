import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileChange, session, turn } from '../test/fixtures';
import { json, mockFetch } from '../test/mockFetch';
import { renderWithClient } from '../test/render';
import { App } from './App';

const textSide = (text: string) => ({
  exists: true,
  binary: false,
  tooLarge: false,
  truncated: false,
  size: text.length,
  text,
});

beforeEach(() => {
  mockFetch({
    'GET /api/sessions': json({ sessions: [session({ sessionId: 's1' }), session({ sessionId: 's2', turnCount: 2 })] }),
    'GET /api/store': json({ sessions: 2, turns: 5, blobs: 4, bytes: 100, dataDir: '/d' }),
    'GET /api/sessions/s1/turns': json({ turns: [turn(1)] }),
    'GET /api/sessions/s2/turns': json({
      turns: [turn(1, { turnId: 'u1', sessionId: 's2' }), turn(2, { turnId: 'u2', sessionId: 's2' })],
    }),
    'GET /api/turns/*': (call) => {
      const turnId = call.path.split('/')[3];
      return json({
        turn: turn(turnId === 'u1' ? 1 : 2, { turnId, sessionId: 's2', fileCount: 2 }),
        files: [fileChange('workspace:/a.txt'), fileChange('workspace:/b.txt', { change: 'created', before: null })],
        entries: [],
      });
    },
    'GET /api/turns/*/diff': json({
      uri: 'workspace:/b.txt',
      before: { ...textSide(''), exists: false, text: null },
      after: textSide('hello\n'),
    }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the header', () => {
  it('counts the kept file versions and says their size is before compression', async () => {
    renderWithClient(<App />);
    const usage = await screen.findByLabelText('Store usage');
    await waitFor(() => expect(usage).toHaveTextContent('2 sessions5 turns4 file versions100 B'));
    expect(screen.getByText('100 B')).toHaveAttribute('title', expect.stringMatching(/before compression/));
  });
});

describe('URL state', () => {
  it('opens the session, turn and file a link names', async () => {
    window.history.replaceState(null, '', '/?session=s2&turn=u1&file=workspace%3A%2Fb.txt');
    renderWithClient(<App />);
    expect(await screen.findByRole('button', { name: /Session s2/ })).toHaveAttribute('aria-current', 'true');
    expect(await screen.findByRole('option', { name: /^#1 / })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('region', { name: 'Diff of b.txt' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show diff of b.txt' })).toHaveAttribute('aria-current', 'true');
  });

  it('puts a new selection in the address bar and back restores the previous view', async () => {
    window.history.replaceState(null, '', '/?session=s2&turn=u1&file=workspace%3A%2Fb.txt');
    renderWithClient(<App />);
    await userEvent.click(await screen.findByRole('option', { name: /^#2 / }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('turn')).toBe('u2'));
    window.history.back();
    await waitFor(() => expect(screen.getByRole('option', { name: /^#1 / })).toHaveAttribute('aria-selected', 'true'));
    expect(new URLSearchParams(window.location.search).get('file')).toBe('workspace:/b.txt');
  });

  it('j and k step through the turns from anywhere on the page', async () => {
    window.history.replaceState(null, '', '/?session=s2&turn=u2');
    renderWithClient(<App />);
    await screen.findByRole('option', { name: /^#2 / });
    await userEvent.keyboard('j');
    await waitFor(() => expect(screen.getByRole('option', { name: /^#1 / })).toHaveAttribute('aria-selected', 'true'));
    await userEvent.keyboard('k');
    await waitFor(() => expect(screen.getByRole('option', { name: /^#2 / })).toHaveAttribute('aria-selected', 'true'));
  });
});
