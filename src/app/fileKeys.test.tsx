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
    'GET /api/sessions': json({ sessions: [session()] }),
    'GET /api/store': json({ sessions: 1, turns: 1, blobs: 1, bytes: 10, dataDir: '/d' }),
    'GET /api/sessions/s1/turns': json({ turns: [turn(1, { fileCount: 3 })] }),
    // The server's order is not the order the list shows (folders first, then files by name).
    'GET /api/turns/t1': json({
      turn: turn(1, { fileCount: 3 }),
      files: [fileChange('workspace:/z.txt'), fileChange('workspace:/a.txt'), fileChange('workspace:/m/b.txt')],
      entries: [],
    }),
    'GET /api/turns/t1/diff': (call) =>
      json({
        uri: new URLSearchParams(call.path.split('?')[1]).get('uri'),
        before: textSide('x\n'),
        after: textSide('y\n'),
      }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const current = (path: string) => screen.getByRole('button', { name: `Show diff of ${path}` });

describe('n and p', () => {
  it('step through the files in the order the list displays them', async () => {
    window.history.replaceState(null, '', '/?session=s1&turn=t1&file=workspace%3A%2Fz.txt');
    renderWithClient(<App />);
    const shown = (await screen.findAllByRole('button', { name: /^Show diff of / })).map((button) =>
      button.getAttribute('aria-label')!.slice('Show diff of '.length),
    );
    expect(shown).toHaveLength(3);
    expect(shown).not.toEqual(['z.txt', 'a.txt', 'm/b.txt']); // the server's order
    await userEvent.click(current(shown[2]));

    await userEvent.keyboard('p');
    await waitFor(() => expect(current(shown[1])).toHaveAttribute('aria-current', 'true'));
    await userEvent.keyboard('p');
    await waitFor(() => expect(current(shown[0])).toHaveAttribute('aria-current', 'true'));
    await userEvent.keyboard('n');
    await waitFor(() => expect(current(shown[1])).toHaveAttribute('aria-current', 'true'));
  });

  it('the list shows folders before files, each by name', async () => {
    window.history.replaceState(null, '', '/?session=s1&turn=t1');
    renderWithClient(<App />);
    const names = (await screen.findAllByRole('button', { name: /^Show diff of / })).map((button) =>
      button.getAttribute('aria-label'),
    );
    expect(names).toEqual(['Show diff of m/b.txt', 'Show diff of a.txt', 'Show diff of z.txt']);
  });
});
